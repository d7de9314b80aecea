#pragma once
// Area umbrella: tensors, views, tensor expressions, in-place ops on tensors,
// opaque ops on tensors, buffer aliases (SPEC 2, 4, 7, 8).

#include "inplace/aligned_allocator.hpp"
#include "inplace/alias.hpp"
#include "inplace/assign.hpp"
#include "inplace/error.hpp"
#include "inplace/expression.hpp"
#include "inplace/extents.hpp"
#include "inplace/noalias.hpp"
#include "inplace/tensor.hpp"
#include "inplace/tensor_inplace.hpp"
#include "inplace/tensor_opaque.hpp"
#include "inplace/tensor_view.hpp"
#include "inplace/view_functions.hpp"
