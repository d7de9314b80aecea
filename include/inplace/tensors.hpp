#pragma once
// Area umbrella: tensors, views, tensor expressions, buffer aliases (SPEC 4, 7, 8).

#include "inplace/error.hpp"
#include "inplace/extents.hpp"
