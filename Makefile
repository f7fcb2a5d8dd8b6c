# The two commands a newcomer needs:  make run  and  make test.
# Both install what is missing (Debian 12 packages), configure CMake in Release and build.
BUILD ?= build
JOBS  ?= 2
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE := 1

# python3-matplotlib and python3-numpy: collnoc plot, the study scripts and the tests that draw.
DEBIAN_PACKAGES := g++ make cmake pkg-config libsystemc-dev catch2 libyaml-cpp-dev \
                   nlohmann-json3-dev libcli11-dev libboost-dev zlib1g-dev parallel \
                   python3-matplotlib python3-numpy
# `make fuzz` only: clang and its libFuzzer runtime.
FUZZ_PACKAGES := clang libclang-rt-14-dev

.PHONY: all deps fuzz-deps configure build run test test-sanitize fuzz bench install clean
all: build

# Installs the Debian packages that are missing (as root), or prints the exact command.
define install_missing
@missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ]; then \
    echo "collnoc: installing$$missing"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing || exit 1; \
  else \
    echo "collnoc: missing Debian packages. Run:"; \
    echo "  sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
  fi; \
fi
endef

deps:
	$(call install_missing,$(DEBIAN_PACKAGES))

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j$(JOBS)

# The default simulation: 8x8 mesh, uniform traffic; a summary here, the JSON in $(BUILD).
run: build
	$(BUILD)/collnoc run --out $(BUILD)/results.json

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# The suite again under AddressSanitizer and UBSan (Debug). LeakSanitizer is off: SystemC's
# coroutine stacks confuse it. The install test is left out (it installs the Release build), and
# so are the long simulations (label long), which `make test` runs.
test-sanitize: deps
	cmake -S . -B $(BUILD)-sanitize -DCMAKE_BUILD_TYPE=Debug -DCOLLNOC_SANITIZE=ON -DCOLLNOC_LTO=OFF
	cmake --build $(BUILD)-sanitize -j$(JOBS)
	cd $(BUILD)-sanitize && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j$(JOBS) -E install_and_find_package -LE long

# The libFuzzer targets of tests/fuzz (docs/fuzzing.md), built with clang, ASan and UBSan in
# $(BUILD)-fuzz, FUZZ_SECONDS each, two at a time; each starts from a copy of its seed corpus
# (tests/fuzz/corpus/NAME stays as it is). Fails on any crash, sanitizer report, input slower
# than FUZZ_TIMEOUT s or above FUZZ_RSS_MB; the input is then in $(BUILD)-fuzz/artifacts/NAME/.
FUZZ_BUILD   := $(BUILD)-fuzz
FUZZ_TARGETS := config codecs analyze_codec hdn_spec routing_table
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB  ?= 2048

fuzz-deps:
	$(call install_missing,$(DEBIAN_PACKAGES) $(FUZZ_PACKAGES))

fuzz: fuzz-deps
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCOLLNOC_FUZZ=ON -DCOLLNOC_TESTS=OFF \
	  -DCOLLNOC_EXAMPLES=OFF -DCOLLNOC_LTO=OFF
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_targets
	@$(MAKE) --no-print-directory -j$(JOBS) $(addprefix fuzz-run-,$(FUZZ_TARGETS))

fuzz-run-%:
	@rm -rf $(FUZZ_BUILD)/corpus/$* $(FUZZ_BUILD)/artifacts/$*
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/artifacts/$*
	@cp -r tests/fuzz/corpus/$* $(FUZZ_BUILD)/corpus/$*
	@echo "fuzz_$*: $(FUZZ_SECONDS) s, log in $(FUZZ_BUILD)/fuzz_$*.log"
	@$(FUZZ_BUILD)/tests/fuzz/fuzz_$* $(FUZZ_BUILD)/corpus/$* -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=$(FUZZ_RSS_MB) -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_BUILD)/artifacts/$*/ > $(FUZZ_BUILD)/fuzz_$*.log 2>&1 \
	  && grep -h "^Done" $(FUZZ_BUILD)/fuzz_$*.log | sed 's/^/fuzz_$*: /' \
	  || { tail -n 60 $(FUZZ_BUILD)/fuzz_$*.log; echo "fuzz_$*: FINDING, input in $(FUZZ_BUILD)/artifacts/$*/"; exit 1; }

bench: build
	bench/run $(BUILD)/collnoc

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
