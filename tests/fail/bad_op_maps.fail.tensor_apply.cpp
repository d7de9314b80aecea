// On tensors: destroy_map names input 2 of a binary op.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: bad_op_maps" in the first lines).
// expect: the op's view_map/destroy_map is malformed
#include <inplace/tensors.hpp>

namespace ip = inplace;
namespace hana = boost::hana;
template <int I>
struct scribble {
  static constexpr bool elementwise = true;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, I>));
  constexpr auto operator()(float a, float b) const { return a * b; }
};

int main() {
  ip::tensor<float> x{1, 2}, y{3, 4};
#ifdef INPLACE_SHOULD_FAIL
  ip::apply(scribble<2>{}, x, y);
#else
  ip::apply(scribble<0>{}, x, y);
#endif
}
