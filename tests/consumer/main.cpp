// A consumer of the installed (or add_subdirectory'd) library.
#include <inplace.hpp>

int main() {
  namespace ip = inplace;
  return ip::ops::add{}(1, 2) == 3 ? 0 : 1;
}
