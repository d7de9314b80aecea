#pragma once
// Area umbrella: running a checked graph function: f(args...) with donation and
// copy-protection, the automatic in-place rewrite, fused loops, ip::plan, and
// seeing and checking a plan: ip::explain, ip::to_dot, debug mode.

#include "inplace/graph.hpp"
#include "inplace/run/call.hpp"
#include "inplace/run/explain.hpp"
#include "inplace/run/kept_view.hpp"
#include "inplace/run/plan.hpp"
#include "inplace/run/to_dot.hpp"
#include "inplace/tensors.hpp"
