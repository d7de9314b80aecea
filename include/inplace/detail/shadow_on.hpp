// (no #pragma once: closes the shadow_off.hpp of the header that includes it)
#include "inplace/detail/config.hpp"
INPLACE_SHADOW_ON
