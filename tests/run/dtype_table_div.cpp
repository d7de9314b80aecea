// a / b for every pair of dtypes and weak constants, against NumPy (dtype_table.hpp).
#include "dtype_table.hpp"

#include <catch2/catch.hpp>

TEST_CASE("every pair of dtypes and weak constants gives NumPy's dtype and value of a / b", "[dtypes]") {
#define INPLACE_DTYPE_SAMPLE(...)
#define INPLACE_DTYPE_ROW_div(...) INPLACE_DTYPE_CHECK(__VA_ARGS__)
#define INPLACE_DTYPE_ROW_add(...)
#include "dtype_table.inc"
}
