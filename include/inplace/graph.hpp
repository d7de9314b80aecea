#pragma once
// Area umbrella: symbolic graphs and their compile-time analysis.

#include "inplace/graph/constants.hpp"
#include "inplace/graph/error_kind.hpp"
#include "inplace/graph/function.hpp"
#include "inplace/graph/graph_ops.hpp"
#include "inplace/graph/graph_reductions.hpp"
#include "inplace/graph/node.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/ops/inplace_op.hpp"
#include "inplace/ops/opaque.hpp"
#include "inplace/ops/reductions.hpp"
#include "inplace/ops/update.hpp"
#include "inplace/ops/views.hpp"
#include "inplace/shape.hpp"
#include "inplace/graph/symbols.hpp"
