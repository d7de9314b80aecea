// (no #pragma once: closes the shadow_off.hpp of the header that includes it)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
