#pragma once
// Run-time errors. A call that throws has not modified a borrowed argument.

#include <stdexcept>
#include <string>

namespace inplace {

struct error : std::logic_error {
  using std::logic_error::logic_error;
};
// Extents that do not broadcast, or a destination/argument of the wrong extents.
struct shape_error : error {
  using error::error;
};
// An ip::alias that needs more bytes than its storage has, or of a non-dense view.
struct alias_error : error {
  using error::error;
};
// ip::noalias(dst) = expr where expr reads dst with another index pattern.
struct aliasing_error : error {
  using error::error;
};
// Debug mode found an op that broke its maps, or a plan that differs from the reference.
struct debug_error : error {
  using error::error;
};

}  // namespace inplace
