#pragma once
// inplace: computation graphs as types, in-place orders checked at compile time.
// Users write `namespace ip = inplace;`.

#include "inplace/error.hpp"
#include "inplace/extents.hpp"
#include "inplace/fixed_string.hpp"
#include "inplace/graph.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/ops/inplace_op.hpp"
#include "inplace/tensors.hpp"
#include "inplace/run.hpp"  // (after tensors.hpp: a tensor error's include chain stays short)
