#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;

namespace {
// A user allocator that counts live blocks and bytes, over the aligned one.
struct counts {
  int allocations = 0, live = 0;
};
template <class T>
struct counting_allocator {
  using value_type = T;
  static constexpr std::size_t alignment = 64;
  counts* c;
  explicit counting_allocator(counts* p) : c(p) {}
  template <class U>
  counting_allocator(const counting_allocator<U>& o) : c(o.c) {}
  T* allocate(std::size_t n) {
    ++c->allocations;
    ++c->live;
    return ip::aligned_allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) {
    --c->live;
    ip::aligned_allocator<T>().deallocate(p, n);
  }
  friend bool operator==(const counting_allocator& a, const counting_allocator& b) { return a.c == b.c; }
};
bool aligned64(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }
}  // namespace

TEST_CASE("tensor: extents constructor, zero elements, 64-byte alignment", "[tensor]") {
  ip::tensor<float, 2> A(3, 5);
  CHECK(A.size() == 15);
  CHECK(A.extent(0) == 3);
  CHECK(A.extent(1) == 5);
  CHECK(A.stride(0) == 5);
  CHECK(A.stride(1) == 1);
  CHECK(aligned64(A.data()));
  for (float v : A) CHECK(v == 0.0f);
  STATIC_REQUIRE(decltype(A)::rank == 2);
  STATIC_REQUIRE(std::is_same_v<decltype(A.begin()), float*>);
  for (int n : {1, 3, 17, 1000}) {
    ip::tensor<double> x(n);
    CHECK(aligned64(x.data()));
    CHECK(x.size() == static_cast<std::size_t>(n));
  }
  ip::tensor<float> empty;
  CHECK(empty.size() == 0);
  CHECK(empty.data() == nullptr);
}

TEST_CASE("tensor: initializer lists, element access, iterators", "[tensor]") {
  ip::tensor<int, 2> A{{1, 2, 3}, {4, 5, 6}};
  CHECK(A.extent(0) == 2);
  CHECK(A.extent(1) == 3);
  CHECK(A(0, 0) == 1);
  CHECK(A(1, 2) == 6);
  CHECK(A(1, 0) == 4);
  CHECK(A[4] == 5);  // row-major flat index
  A(0, 1) = 20;
  CHECK(A.data()[1] == 20);
  CHECK(std::accumulate(A.begin(), A.end(), 0) == 1 + 20 + 3 + 4 + 5 + 6);
  const auto& C = A;
  CHECK(std::vector<int>(C.cbegin(), C.cend()) == std::vector<int>{1, 20, 3, 4, 5, 6});

  ip::tensor<float> x{1.5f, 2.5f};
  CHECK(x.size() == 2);
  CHECK(x[1] == 2.5f);
  CHECK(x(0) == 1.5f);

  ip::tensor<int, 3> T{{{1, 2}, {3, 4}, {5, 6}}, {{7, 8}, {9, 10}, {11, 12}}};
  CHECK(T.extents() == std::array<std::size_t, 3>{2, 3, 2});
  CHECK(T(1, 2, 0) == 11);
}

TEST_CASE("tensor: ragged initializer lists throw shape_error", "[tensor][error]") {
  using L = std::initializer_list<std::initializer_list<int>>;
  auto make = [](L l) { return ip::tensor<int, 2>(l); };
  CHECK_THROWS_MATCHES(make({{1, 2}, {3}}), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: ragged initializer list: axis 1 has 1 and 2 elements"));
}

TEST_CASE("tensor: static extents", "[tensor]") {
  ip::tensor<float, ip::extents<4, 4>> S;
  STATIC_REQUIRE(decltype(S)::rank == 2);
  CHECK(S.size() == 16);
  CHECK(aligned64(S.data()));
  using S23 = ip::tensor<int, ip::extents<2, 3>>;
  S23 ok{{1, 2, 3}, {4, 5, 6}};
  CHECK(ok(1, 1) == 5);
  CHECK_THROWS_MATCHES(S23(std::array<std::size_t, 2>{3, 2}), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: extents (3, 2) do not match the static extents (2, 3)"));
  ip::tensor<int, ip::extents<ip::dynamic, 2>> D(std::array<std::size_t, 2>{5, 2});
  CHECK(D.size() == 10);
  ip::tensor<int, ip::extents<ip::dynamic, 2>> P;  // default: the static extent kept, no storage
  CHECK(P.extents() == std::array<std::size_t, 2>{0, 2});
  CHECK(P.size() == 0);
  CHECK(P.data() == nullptr);
  P = D * 2;  // takes D's extents (storage-less assignment), 2 checked against the static one
  CHECK(P.size() == 10);
}

TEST_CASE("tensor: moving between static and dynamic extents takes the storage", "[tensor]") {
  ip::tensor<float, ip::extents<2, 3>> s{{1, 2, 3}, {4, 5, 6}};
  const float* storage = s.data();
  ip::tensor<float, 2> d = std::move(s);  // implicit: static -> rank
  CHECK(d.data() == storage);
  CHECK(d.extents() == std::array<std::size_t, 2>{2, 3});
  CHECK(s.data() == nullptr);  // NOLINT(bugprone-use-after-move)
  ip::tensor<float, ip::extents<2, 3>> back(std::move(d));  // rank -> static: checked
  CHECK(back.data() == storage);
  CHECK(back(1, 2) == 6);
  ip::tensor<float, 2> wrong(3, 2);
  const float* kept = wrong.data();
  CHECK_THROWS_AS((ip::tensor<float, ip::extents<2, 3>>(std::move(wrong))), ip::shape_error);
  CHECK(wrong.data() == kept);  // unchanged
  ip::tensor<float, ip::extents<2, 3>> target;
  CHECK_THROWS_AS(target = std::move(wrong), ip::shape_error);
  CHECK(wrong.data() == kept);
  ip::tensor<float, 2> e(2, 3);
  const float* e_storage = e.data();
  e = std::move(back);  // assignment evaluates into e's storage, as for any expression
  CHECK(e.data() == e_storage);
  CHECK(e(1, 2) == 6);
}

TEST_CASE("tensor: deep copy, move leaves the source empty", "[tensor]") {
  ip::tensor<float> a{1, 2, 3};
  ip::tensor<float> b = a;
  CHECK(b.data() != a.data());
  b[0] = 10;
  CHECK(a[0] == 1);
  ip::tensor<float> c(7);
  c = a;  // value copy: takes a's extents
  CHECK(c.size() == 3);
  CHECK(c[2] == 3);
  const float* storage = a.data();
  ip::tensor<float> d = std::move(a);
  CHECK(d.data() == storage);
  CHECK(a.size() == 0);  // NOLINT(bugprone-use-after-move)
  CHECK(a.data() == nullptr);
  CHECK(a.extent(0) == 0);
  ip::tensor<float> e{9, 9};
  e = std::move(d);
  CHECK(e.data() == storage);
  CHECK(d.size() == 0);
  CHECK(d.data() == nullptr);
  ip::tensor<float, ip::extents<2, 2>> s1, s2 = std::move(s1);
  CHECK(s1.size() == 0);
  CHECK(s1.data() == nullptr);
  CHECK(s2.size() == 4);
}

TEST_CASE("tensor: a user allocator is used for every block", "[tensor][allocator]") {
  counts c;
  {
    using A = counting_allocator<float>;
    ip::tensor<float, 1, A> x(std::array<std::size_t, 1>{100}, A(&c));
    CHECK(c.allocations == 1);
    auto y = x;
    CHECK(c.allocations == 2);
    auto z = std::move(x);
    CHECK(c.allocations == 2);
    CHECK(c.live == 2);
    y = 2.0f * z + 1.0f;  // evaluated in place: no allocation
    CHECK(c.allocations == 2);
    CHECK(y[5] == 1.0f);
  }
  CHECK(c.live == 0);
}

TEST_CASE("tensor: construction from an expression", "[tensor]") {
  ip::tensor<double> x{1, 2, 3};
  ip::tensor<double> y = x * x + 1.0;
  CHECK(std::vector<double>(y.begin(), y.end()) == std::vector<double>{2, 5, 10});
  ip::tensor<float, 2> A{{1, 2}, {3, 4}};
  ip::tensor<float, 2> At(ip::transpose(A));
  CHECK(At(0, 1) == 3);
  CHECK(At(1, 0) == 2);
}

TEST_CASE("aligned_allocator: alignment, rebind, equality", "[allocator]") {
  ip::aligned_allocator<char, 128> a;
  char* p = a.allocate(3);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 128 == 0);
  a.deallocate(p, 3);
  using R = std::allocator_traits<ip::aligned_allocator<float>>::rebind_alloc<double>;
  STATIC_REQUIRE(std::is_same_v<R, ip::aligned_allocator<double, 64>>);
  STATIC_REQUIRE(ip::aligned_allocator<float>::alignment == 64);
  CHECK(ip::aligned_allocator<float>() == ip::aligned_allocator<double>());
  CHECK_THROWS_AS(ip::aligned_allocator<double>().allocate(std::size_t(-1) / 4), std::bad_array_new_length);
}

TEST_CASE("tensor: extents as a braced list, on both compilers", "[tensor]") {
  ip::tensor<float, 2> A({2, 3});
  CHECK(A.extents() == std::array<std::size_t, 2>{2, 3});
  ip::tensor<int, 3> B({2, 3, 4}, ip::aligned_allocator<int>());
  CHECK(B.size() == 24);
  ip::tensor<float> x({5});  // rank 1: an initializer list, the value [5]
  CHECK(x.size() == 1);
  CHECK(x[0] == 5);
}

TEST_CASE("tensor: assigning to a tensor without storage takes the operand's extents", "[tensor][empty]") {
  ip::tensor<float> x{1, 2, 3};
  const float* storage = x.data();
  x = std::move(x) + 1.0f;  // donated to the expression, computed there, taken back
  CHECK(x.data() == storage);
  CHECK(std::vector<float>(x.begin(), x.end()) == std::vector<float>{2, 3, 4});
  x = ip::exp(std::move(x) * 0.0f);
  CHECK(x.data() == storage);
  CHECK(std::vector<float>(x.begin(), x.end()) == std::vector<float>{1, 1, 1});
  ip::tensor<float> a;  // default-constructed: no storage, like Eigen's empty dynamic arrays
  a = x * 2.0f;
  CHECK(std::vector<float>(a.begin(), a.end()) == std::vector<float>{2, 2, 2});
  ip::tensor<float> moved = std::move(a);
  a = ip::reverse(moved);
  CHECK(a.size() == 3);
  ip::tensor<double, 2> M;
  const ip::tensor<double, 2> row{{1, 2}};
  M = ip::transpose(row);  // a view takes the tensor's place too
  CHECK(M.extents() == std::array<std::size_t, 2>{2, 1});
  CHECK(M(1, 0) == 2);
  // A scalar has no extents: a tensor without storage of rank > 0 stays empty.
  ip::tensor<float> e;
  e = 3.0f;
  CHECK(e.size() == 0);
  // Another rank: the usual shape_error.
  CHECK_THROWS_AS((e = ip::tensor<float, 2>(2, 2)), ip::shape_error);
  // Static extents are still checked.
  ip::tensor<float, ip::extents<2>> s2;
  auto s3 = std::move(s2);
  CHECK_THROWS_AS(s2 = x + 1.0f, ip::shape_error);
  s2 = ip::slice<1>(x) * 3.0f;
  CHECK(s2[1] == 3);
  // An lvalue expression is not robbed of the tensor it owns.
  ip::tensor<float> y;
  const auto keep = std::move(moved) + 1.0f;
  y = keep;
  ip::tensor<float> z(3);
  z = keep;
  CHECK(std::vector<float>(z.begin(), z.end()) == std::vector<float>{3, 3, 3});
  CHECK(y.data() != z.data());
}

TEST_CASE("tensor: a rank-0 tensor without storage", "[tensor][empty]") {
  ip::tensor<float, 0> s;
  CHECK(s.size() == 1);
  s = 2.0f;
  ip::tensor<float, 0> t = std::move(s);
  CHECK(s.size() == 0);  // NOLINT(bugprone-use-after-move)
  CHECK(s.data() == nullptr);
  ip::tensor<float> x{1, 2};
  CHECK_THROWS_MATCHES(x + s, ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: a rank-0 operand without storage "
                                                "(default-constructed view, or a moved-from tensor) has no value to read"));
  s = 5.0f;  // assigning gives it its one element back
  CHECK(s.size() == 1);
  CHECK(float(s) == 5);
  ip::tensor_view<float, 0> v;
  CHECK_THROWS_MATCHES(v = 1.0f, ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: a rank-0 view without storage "
                                                "(default-constructed, or of a moved-from tensor) has no element to write"));
  CHECK(float(t) == 2);
}

namespace {
// A stateful allocator that does not propagate on move assignment: blocks cannot change owners.
template <class T>
struct arena_allocator {
  using value_type = T;
  using propagate_on_container_move_assignment = std::false_type;
  using is_always_equal = std::false_type;
  int id;
  explicit arena_allocator(int i) : id(i) {}
  template <class U>
  arena_allocator(const arena_allocator<U>& o) : id(o.id) {}
  T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, std::size_t n) { std::allocator<T>().deallocate(p, n); }
  friend bool operator==(const arena_allocator& a, const arena_allocator& b) { return a.id == b.id; }
};
}  // namespace

TEST_CASE("tensor: move assignment between unequal allocators copies and still empties the source",
          "[tensor][allocator]") {
  using A = arena_allocator<float>;
  using T = ip::tensor<float, 1, A>;
  T a(std::array<std::size_t, 1>{3}, A(1)), b(std::array<std::size_t, 1>{2}, A(2));
  a = 7.0f;
  b = std::move(a);
  CHECK(b.size() == 3);
  CHECK(b[2] == 7);
  CHECK(b.get_allocator().id == 2);
  CHECK(a.size() == 0);  // NOLINT(bugprone-use-after-move)
  CHECK(a.data() == nullptr);
}
