// (no #pragma once: included at the top of every header that needs it, after
// its #includes, and paired with shadow_on.hpp at its end)
//
// g++ -Wshadow warns when a lambda's parameter or local has the name of any
// global of the user's program (int a; int x; ...): not a bug in the library's
// headers, so off between this and shadow_on.hpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif
