#pragma once
// Area umbrella: tensors, views, tensor expressions, in-place ops on tensors,
// opaque ops on tensors, buffer aliases.

#include "inplace/tensor/aligned_allocator.hpp"
#include "inplace/tensor/alias.hpp"
#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/axis_views.hpp"
#include "inplace/error.hpp"
#include "inplace/tensor/expression.hpp"
#include "inplace/extents.hpp"
#include "inplace/tensor/noalias.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_concatenate.hpp"
#include "inplace/tensor/tensor_copy.hpp"
#include "inplace/tensor/tensor_inplace.hpp"
#include "inplace/tensor/tensor_opaque.hpp"
#include "inplace/tensor/tensor_reductions.hpp"
#include "inplace/tensor/tensor_view.hpp"
#include "inplace/tensor/view_functions.hpp"
