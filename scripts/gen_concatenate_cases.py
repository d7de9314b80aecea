#!/usr/bin/python3
"""NumPy's values for tests/tensor/concatenate.cpp: np.concatenate and np.stack
on tensors (static and run-time extents, ranks 1 to 3, every axis including
negative ones, an empty operand), on views (transposed, strided) and on
expressions, with mixed dtypes (the result's dtype is NumPy's promotion).

    /usr/bin/python3 scripts/gen_concatenate_cases.py           # writes tests/tensor/concatenate.cpp
    /usr/bin/python3 scripts/gen_concatenate_cases.py --check   # fails unless the file is what it writes
"""
import pathlib
import sys

import numpy as np

CPP = {np.float32: "float", np.float64: "double", np.int32: "std::int32_t", np.int64: "std::int64_t",
       np.bool_: "bool", np.int8: "std::int8_t", np.uint8: "std::uint8_t",
       np.int16: "std::int16_t"}


def values(dtype, shape, seed):
    n = int(np.prod(shape))
    base = (np.arange(n) * 7 + seed * 3) % 11 - 4
    if dtype == np.bool_:
        return (base % 2 == 0).reshape(shape)
    if np.issubdtype(dtype, np.floating):
        return (base * 0.75 + seed).astype(dtype).reshape(shape)
    return (base + seed).astype(dtype).reshape(shape)


def literal(dtype, x):
    if dtype == np.bool_:
        return "true" if x else "false"
    if dtype == np.float32:
        return repr(float(x)) + "f"
    if dtype == np.float64:
        return repr(float(x))
    return str(int(x))


def nested(dtype, a):
    if a.ndim == 1:
        return "{" + ", ".join(literal(dtype, x) for x in a) + "}"
    return "{" + ", ".join(nested(dtype, r) for r in a) + "}"


class Operand:
    """A tensor of dtype and shape; `form` says what the case passes: the tensor,
    its transpose (the tensor then holds the transposed values), a strided view
    of every other column, or the expression t + t."""

    def __init__(self, dtype, shape, form="tensor", static=True, seed=0):
        self.dtype, self.shape, self.form, self.static, self.seed = dtype, shape, form, static, seed

    def stored(self):
        v = values(self.dtype, self.shape, self.seed)
        if self.form == "transpose":
            return np.ascontiguousarray(v.T)
        if self.form == "strided":  # every other column of a twice-as-wide array
            wide = values(self.dtype, self.shape[:-1] + (2 * self.shape[-1],), self.seed)
            return wide
        return v

    def value(self):
        s = self.stored()
        if self.form == "transpose":
            return s.T
        if self.form == "strided":
            return s[..., ::2]
        if self.form == "sum":
            return s + s
        return s

    def declare(self, name):
        s = self.stored()
        spec = ("ip::extents<" + ", ".join(str(e) for e in s.shape) + ">") if self.static else str(s.ndim)
        t = f"ip::tensor<{CPP[self.dtype]}, {spec}>"
        if s.size == 0:
            return f"  {t} {name}({', '.join(str(e) for e in s.shape)});\n"
        return f"  const {t} {name}{nested(self.dtype, s)};\n"

    def use(self, name):
        if self.form == "transpose":
            return f"ip::transpose({name})"
        if self.form == "strided":
            return f"ip::view({name}, " + "ip::all, " * (len(self.shape) - 1) + f"ip::range<0, {2 * self.shape[-1]}, 2>)"
        if self.form == "sum":
            return f"{name} + {name}"
        return name


F, D, I, L, B = np.float32, np.float64, np.int32, np.int64, np.bool_
CASES = [
    ("concatenate", 0, [Operand(F, (2, 3)), Operand(F, (1, 3), seed=1)]),
    ("concatenate", 1, [Operand(F, (2, 3), static=False), Operand(F, (2, 1), static=False, seed=1),
                        Operand(F, (2, 2), static=False, seed=2)]),
    ("concatenate", -1, [Operand(D, (2, 2, 3)), Operand(D, (2, 2, 1), seed=1)]),
    ("concatenate", -3, [Operand(I, (1, 2, 2)), Operand(I, (2, 2, 2), seed=1)]),
    ("concatenate", 1, [Operand(I, (2, 2, 3)), Operand(I, (2, 1, 3), static=False, seed=1)]),
    ("concatenate", 0, [Operand(F, (4,)), Operand(F, (0,), static=False), Operand(F, (3,), seed=2)]),
    ("concatenate", 0, [Operand(I, (2, 2)), Operand(F, (1, 2), seed=1)]),
    ("concatenate", 1, [Operand(I, (2, 2)), Operand(L, (2, 1), seed=1)]),
    ("concatenate", 0, [Operand(B, (2, 3)), Operand(I, (1, 3), seed=1)]),
    ("concatenate", 0, [Operand(F, (1, 3)), Operand(D, (2, 3), seed=1)]),
    ("concatenate", 0, [Operand(np.uint8, (2,)), Operand(np.int8, (2,), seed=1)]),
    ("concatenate", 0, [Operand(F, (2, 3)), Operand(F, (2, 3), form="transpose", seed=1)]),
    ("concatenate", 1, [Operand(F, (2, 3), form="transpose"), Operand(F, (2, 2), form="strided", seed=1)]),
    ("concatenate", 1, [Operand(D, (3, 2), form="sum"), Operand(D, (3, 1), seed=1),
                        Operand(D, (3, 2), form="sum", static=False, seed=2)]),
    ("concatenate", 0, [Operand(F, (2, 3))]),
    ("stack", 0, [Operand(F, (2, 3)), Operand(F, (2, 3), seed=1)]),
    ("stack", 1, [Operand(F, (2, 3)), Operand(F, (2, 3), static=False, seed=1), Operand(F, (2, 3), seed=2)]),
    ("stack", 2, [Operand(I, (2, 3)), Operand(I, (2, 3), seed=1)]),
    ("stack", -1, [Operand(D, (3,)), Operand(D, (3,), seed=1)]),
    ("stack", -3, [Operand(F, (2, 2)), Operand(F, (2, 2), form="transpose", seed=1)]),
    ("stack", 0, [Operand(I, (3,)), Operand(D, (3,), seed=1)]),
    ("stack", 1, [Operand(F, (3, 2), form="sum"), Operand(F, (3, 2), seed=1)]),
]


def numpy_fn(name):
    return np.concatenate if name == "concatenate" else np.stack


def case(k, name, axis, ops):
    r = numpy_fn(name)([o.value() for o in ops], axis=axis)
    names = [f"x{j}" for j in range(len(ops))]
    body = "".join(o.declare(n) for o, n in zip(ops, names))
    call = f"ip::{name}<{axis}>(" + ", ".join(o.use(n) for o, n in zip(ops, names)) + ")"
    forms = ", ".join(f"{np.dtype(o.dtype).name}{list(o.shape)}{'' if o.form == 'tensor' else ' ' + o.form}"
                      for o in ops)
    out = f'TEST_CASE("{k}: np.{name}(axis={axis}) of {forms}", "[concatenate][tensor]") {{\n' + body
    out += f"  const auto r = {call};\n"
    out += f"  static_assert(std::is_same_v<std::remove_cvref_t<decltype(r)>::value_type, {CPP[r.dtype.type]}>);\n"
    out += f"  static_assert(std::remove_cvref_t<decltype(r)>::rank == {r.ndim});\n"
    out += "  const std::vector<std::size_t> extents{" + ", ".join(str(e) for e in r.shape) + "};\n"
    out += f"  const std::vector<{CPP[r.dtype.type]}> expected{{" + ", ".join(
        literal(r.dtype.type, x) for x in r.ravel()) + "};\n"
    out += "  check_result(r, extents, expected);\n}\n\n"
    return out


HEADER = '''// Generated by scripts/gen_concatenate_cases.py: NumPy's np.concatenate and
// np.stack, checked on tensors, views and expressions (values and dtypes).
#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace ip = inplace;

namespace {
template <class R, class T>
void check_result(const R& r, const std::vector<std::size_t>& extents, const std::vector<T>& expected) {
  REQUIRE(extents.size() == R::rank);
  for (std::size_t k = 0; k < R::rank; ++k) REQUIRE(r.extent(k) == extents[k]);
  REQUIRE(r.size() == expected.size());
  const T* p = r.data();
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(p[i] == expected[i]);  // row-major, fresh storage
}
}  // namespace

'''

FOOTER = '''TEST_CASE("concatenate: extents that differ off the axis are a shape_error", "[concatenate][tensor]") {
  const ip::tensor<float, 2> a{{1, 2, 3}, {4, 5, 6}};
  const ip::tensor<float, 2> b{{1, 2}, {3, 4}};
  try {
    (void)ip::concatenate<0>(a, b);
    FAIL("no error");
  } catch (const ip::shape_error& e) {
    const std::string m = e.what();
    CHECK(m.find("inplace: shape_error: concatenate along axis 0") == 0);
    CHECK(m.find("operand 1 has extents (2, 2)") != std::string::npos);
  }
  CHECK(a(1, 2) == 6.0f);  // the operands are untouched
  CHECK(b(1, 1) == 4.0f);
  CHECK_THROWS_AS(ip::stack<0>(a, b), ip::shape_error);
  const auto r = ip::concatenate<1>(a, b);  // along the axis where they differ
  CHECK(r(1, 4) == 4.0f);
}

TEST_CASE("concatenate of one operand is a copy, not a view", "[concatenate][tensor]") {
  ip::tensor<int, 1> a{1, 2, 3};
  auto r = ip::concatenate<0>(a);
  REQUIRE(r.data() != a.data());
  r(0) = 9;
  CHECK(a(0) == 1);
}
'''


def main():
    text = HEADER + "".join(case(k, *c) for k, c in enumerate(CASES)) + FOOTER
    path = pathlib.Path(__file__).resolve().parent.parent / "tests/tensor/concatenate.cpp"
    if "--check" in sys.argv:
        if path.read_text() != text:
            sys.exit(f"{path} is not what {__file__} writes: run it")
        return
    path.write_text(text)


if __name__ == "__main__":
    main()
