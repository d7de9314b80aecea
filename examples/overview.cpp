// Placeholder until the graph lands in this same change series.
#include <inplace.hpp>
#include <cstdio>
int main() { std::puts("inplace"); }
