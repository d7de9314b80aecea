#pragma once
// The block of transformer_block.hpp written with Eigen 3.4: the same
// arithmetic in the same order of ops, row-major matrices allocated once (in
// the constructor), products with noalias, the mask and softmax row by row,
// gelu with Eigen's erf. bench/runtime/transformer_bench.cpp times it against
// the graph; bench/memory/transformer_eigen.cpp measures its peak.
#include "transformer_block.hpp"

#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

namespace transformer {
using rm = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using cmap = Eigen::Map<const rm>;

struct eigen_block {
  rm h{S, D}, q{S, D}, k{S, D}, v{S, D}, s{S, S}, att{S, D}, x1{S, D}, u{S, H}, y{S, D};
  Eigen::VectorXf stat{S};

  template <class M>
  void layer_norm(const M& x, rm& out) {
    stat = x.rowwise().mean();
    out = x.colwise() - stat;
    stat = out.array().square().rowwise().mean();
    out.array().colwise() /= (stat.array() + 1e-5f).sqrt();
  }
  [[gnu::noinline]] void run(const act& xt, const weights& w) {
    const cmap X(xt.data(), S, D), Wq(w.wq.data(), D, D), Wk(w.wk.data(), D, D), Wv(w.wv.data(), D, D),
        Wo(w.wo.data(), D, D), W1(w.w1.data(), D, H), W2(w.w2.data(), H, D);
    layer_norm(X, h);
    q.noalias() = h * Wq;
    k.noalias() = h * Wk;
    v.noalias() = h * Wv;
    s.noalias() = q * k.transpose();
    s *= 0.044194173824159216f;
    for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(S); ++i) {  // causal mask, softmax over the keys
      auto r = s.row(i);
      r.tail(static_cast<Eigen::Index>(S) - 1 - i).setConstant(-1e30f);
      const float m = r.maxCoeff();
      r = (r.array() - m).exp();
      r /= r.sum();
    }
    att.noalias() = s * v;
    x1 = X;
    x1.noalias() += att * Wo;
    layer_norm(x1, h);
    u.noalias() = h * W1;
    u = 0.5f * u.array() * (1.0f + (u.array() * 0.70710678118654752f).erf());
    y = x1;
    y.noalias() += u * W2;
  }
};

}  // namespace transformer
