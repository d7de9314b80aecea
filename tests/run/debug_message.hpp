// What a call in debug mode throws: the ip::debug_error's message, or
// "(no debug_error)" when run() returns.
#pragma once

#include <inplace/error.hpp>

#include <string>

template <class F>
std::string debug_message(F&& run) {
  try {
    run();
  } catch (const inplace::debug_error& e) {
    return e.what();
  }
  return "(no debug_error)";
}
