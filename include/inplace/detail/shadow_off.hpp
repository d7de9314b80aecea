// (no #pragma once: included at the top of every header that needs it, after
// its #includes, and paired with shadow_on.hpp at its end; see INPLACE_SHADOW_OFF
// in config.hpp)
#include "inplace/detail/config.hpp"
INPLACE_SHADOW_OFF
