# The two commands a newcomer needs:  make run  and  make test.
# Both install what is missing (Debian 12 packages), configure CMake in Release and build.
BUILD ?= build
JOBS  ?= 2
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE := 1

DEBIAN_PACKAGES := g++ make cmake pkg-config libsystemc-dev catch2 libyaml-cpp-dev \
                   nlohmann-json3-dev libcli11-dev

.PHONY: all deps configure build run test test-sanitize bench install clean
all: build

# Installs the Debian packages that are missing (as root), or prints the exact command.
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
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

bench: build
	bench/run $(BUILD)/collnoc

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
