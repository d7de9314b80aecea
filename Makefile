# Thin wrapper over CMake presets. CXX=clang++ selects the clang preset.
#   make demo   install missing Debian packages, build and run the examples, then
#               show the overview: plans, a legal and an illegal graph, a timing, an SVG
#   make test   the same, then the whole test suite
#   make asan   the suite under clang's -fsanitize=address,undefined
CXX ?= g++
PRESET ?= $(if $(findstring clang,$(CXX)),clang,gcc)
JOBS ?= 2
# Which tests `make test` builds and runs: all of them (the default), or CI's
# part for this compiler (gcc or clang, see docs/contributing.md; CI's parts
# leave the benchmarks out: `make bench` builds them).
TEST_SET ?= all
BENCH_FLAG = $(if $(filter all,$(TEST_SET)),,-DINPLACE_BENCH=OFF)

.PHONY: deps configure demo test asan bench compile-bench clean
deps:
	@./scripts/install-deps.sh
configure: deps
	cmake --preset $(PRESET) -DINPLACE_TEST_SET=$(TEST_SET) $(BENCH_FLAG)
demo: configure
	cmake --build --preset $(PRESET) -j$(JOBS) --target examples
	@ctest --preset $(PRESET) -L example > build/$(PRESET)/examples.log 2>&1 \
	  && echo "examples: all ran with the expected output (build/$(PRESET)/examples.log)" \
	  || (cat build/$(PRESET)/examples.log; exit 1)
	@echo; ./build/$(PRESET)/examples/example_overview --time --dot build/$(PRESET)
	@if command -v dot > /dev/null; then \
	  dot -Tsvg build/$(PRESET)/overview_f.dot -o build/$(PRESET)/overview.svg \
	  && echo "the graph of f, as planned with x donated: build/$(PRESET)/overview.svg"; fi
test: configure
	cmake --build --preset $(PRESET) -j$(JOBS)
	ctest --preset $(PRESET) -j$(JOBS)
asan: deps
	cmake --preset asan
	cmake --build --preset asan -j$(JOBS)
	ctest --preset asan -j$(JOBS) -LE 'fail|consumer'
bench: deps
	cmake --preset $(PRESET) -DINPLACE_BENCH=ON
	cmake --build --preset $(PRESET) -j$(JOBS) --target runtime_bench
	./build/$(PRESET)/bench/runtime/runtime_bench --benchmark_min_time=0.2
	cmake --build --preset $(PRESET) -j$(JOBS) --target memory_pipeline
	python3 bench/memory/run.py build/$(PRESET)/bench/memory
compile-bench: deps
	python3 bench/compile/measure.py
clean:
	rm -rf build
