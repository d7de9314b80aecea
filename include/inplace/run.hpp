#pragma once
// Area umbrella: running a checked graph function: f(args...) with donation and
// copy-protection, the automatic in-place rewrite, fused loops, ip::plan.

#include "inplace/graph.hpp"
#include "inplace/run/call.hpp"
#include "inplace/run/kept_view.hpp"
#include "inplace/run/plan.hpp"
#include "inplace/tensors.hpp"
