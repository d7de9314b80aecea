// The elements of a result (tensor, view, kept_view) in row-major order, as floats.
#pragma once

#include <cstddef>
#include <vector>

template <class T>
std::vector<float> values(const T& t) {
  std::vector<float> r;
  for (std::size_t i = 0; i < t.size(); ++i) r.push_back(static_cast<float>(t[i]));
  return r;
}
