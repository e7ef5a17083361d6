# SPDX-License-Identifier: GPL-2.0
#
# hot_track: the patch series and its workspace.  See README.md.
#
#   make demo     build, boot, mount with hot_track, run a workload, show heat
#   make check    every test (what CI runs)
#
#   make tree     build/linux: the base plus one commit per patch
#   make export   build/linux's commits back into linux/, patches/, series/
#   make series   git format-patch output in build/series/, checked
#   make kernel   the UML test kernel in build/uml/
#   make kunit    KUnit on that kernel
#   make kernel-mod  the same with ext4, xfs and btrfs as modules (build/uml-mod)
#   make modules-test  the kselftests on those modules in the guest
#   make nohot    every file the series touches builds with HOT_TRACKING=n
#   make arches   KUnit on x86_64, i386 and arm64 under QEMU
#   make load-check  make check beside a CPU hog on every core
#   make deps     install the Debian packages (scripts/deps.sh), deps-test its test
#   make boot-test, selftests, drift, tools: single steps of check
#   make bench    the benchmarks (BENCH=quick|cpu|targets|full); bisect-check:
#                 every patch builds
#   make clean    remove the builds (not build/linux, build/base)
#
# BASE_CACHE=DIR takes the base .deb from DIR (default ../shared/kernel when
# it exists); KSRC=DIR starts the work tree from your own kernel tree.

SHELL := /bin/bash
TOP := $(CURDIR)
BASE_CACHE ?= $(wildcard $(TOP)/../shared/kernel)
export BASE_CACHE KSRC

TREE := build/linux
KERNEL := build/uml/linux
FRAGMENTS := config/uml.config config/debug.config config/hot_track.config
GUEST := scripts/guest-run

.PHONY: deps deps-test kernel-mod modules-test nohot arches load-check tree export series kernel kunit boot-test heat-reboot-test tools selftests check demo drift bisect-check bench clean

deps:
	@scripts/deps.sh

# deps.sh against stubbed dpkg-query and apt-get (runs on the host).
deps-test:
	tests/host/deps-test.sh

$(TREE)/.git:
	@$(MAKE) --no-print-directory deps
	base=$$(scripts/fetch-base.sh) && python3 scripts/series.py tree "$$base"

tree: deps
	base=$$(scripts/fetch-base.sh) && python3 scripts/series.py tree "$$base"

export: $(TREE)/.git
	python3 scripts/series.py export

series: $(TREE)/.git
	python3 scripts/series.py series
	python3 scripts/series.py verify
	scripts/checkpatch-series.sh build/series

kernel: $(TREE)/.git deps
	scripts/build-kernel.sh $(TREE) build/uml $(FRAGMENTS)

# KUnit on the test kernel, on 2 CPUs; its log must be clean too.
kunit: kernel
	cd $(TREE) && python3 tools/testing/kunit/kunit.py exec --arch=um \
		--build_dir=$(TOP)/build/uml --timeout=$$((600 * $${HOT_TIMEOUT_SCALE:-1})) \
		--kernel_args=ncpus=2 --kernel_args=seccomp=on 'hot_track*'
	scripts/kernel-log-check build/uml/test.log

# ext4, xfs and btrfs as modules: modpost finds every symbol they use of
# hot_track exported; in the guest they load, pass the kselftests, unload.
kernel-mod: $(TREE)/.git deps
	scripts/build-kernel.sh $(TREE) build/uml-mod config/uml.config \
		config/hot_track.config config/modules.config

modules-test: kernel-mod tools
	$(GUEST) -k build/uml-mod/linux -n modules -t 1500 -d ext4:1G -d xfs:1G \
		-d btrfs:1G -d plain:512M tests/guest/modules.sh

# Every C file the series touches builds without warnings (W=1) with
# CONFIG_HOT_TRACKING=n.
nohot: $(TREE)/.git deps
	scripts/build-nohot.sh $(TREE) build/uml-nohot

# KUnit on x86_64, i386 (32-bit) and arm64 (weakly ordered) under QEMU.
ARCHES ?= x86_64 i386 arm64
arches: $(TREE)/.git
	@scripts/deps.sh $(if $(filter arm64,$(ARCHES)),arches,check)
	scripts/kunit-arch.sh $(ARCHES)

# make check with a CPU hog on every core beside it.
load-check: kernel
	@scripts/deps.sh check load
	scripts/load-check.sh

boot-test: kernel
	$(GUEST) -t 600 -d ext4:1G -d xfs:1G -d btrfs:1G tests/guest/boot.sh

# The repository and the work tree agree: exporting the tree changes nothing.
drift: $(TREE)/.git
	python3 scripts/series.py export
	@git diff --quiet -- linux patches series && \
	 [ -z "$$(git ls-files --others --exclude-standard -- linux patches series)" ] || \
	 { git status --short -- linux patches series; \
	   echo "drift: build/linux and the repository differ" >&2; exit 1; }

# User-space programs of the series, built against its UAPI headers.
UAPI := KHDR_INCLUDES="-D__EXPORTED_HEADERS__ -isystem $(TOP)/$(TREE)/include/uapi"
tools: $(TREE)/.git
	@mkdir -p build/tools build/selftests
	$(MAKE) -s -C $(TREE)/tools/hot_track OUTPUT=$(TOP)/build/tools/ $(UAPI)
	$(MAKE) -s -C $(TREE)/tools/testing/selftests/hot_track \
		OUTPUT=$(TOP)/build/selftests $(UAPI)

# The kselftests in the guest: ext4, xfs, btrfs and an untracked ext4;
# btrfs hot relocation on a rotational and a non-rotational disk.
selftests: kernel tools
	$(GUEST) -t 2700 -d ext4:1G -d xfs:1G -d btrfs:1G -d plain:512M \
		-d hdd:1G -d ssd:640M -d spare:640M tests/guest/selftests.sh

# Heat saved, the guest powered off and booted again, heat loaded.  A pause
# between the boots makes the saved ages older than the second boot.
heat-reboot-test: kernel tools
	$(GUEST) -t 300 -n heat-reboot -d ext4:1G -d btrfs:1G tests/guest/heat-reboot.sh save
	sleep 5
	$(GUEST) -t 300 -n heat-reboot -r -d ext4:1G -d btrfs:1G tests/guest/heat-reboot.sh load

check: kernel
	scripts/check.sh

demo: kernel tools
	@scripts/deps.sh demo
	$(GUEST) -t 900 -n demo -d ext4:2G -d xfs:2G -d btrfs:2G tests/guest/demo.sh \
		$(DEMO_RUNTIME)
	@echo "demo: heat maps in $(TOP)/build/runs/demo/heatmap-{ext4,xfs,btrfs}.png"

# The benchmarks: overhead, micro, accuracy, hot_move (BENCH=quick, cpu,
# targets or full; not part of check).
BENCH ?= quick
bench: $(TREE)/.git deps
	@scripts/deps.sh check bench
	scripts/bench.sh $(BENCH)

# Every patch of the series builds on its own (long: not part of check).
bisect-check: $(TREE)/.git deps
	scripts/bisect-check.sh

clean:
	rm -rf build/uml build/uml-mod build/uml-nohot build/kunit-* build/uml-bisect build/uml-base build/uml-bench build/uml-base-up build/uml-bench-up build/uml-micro build/bench build/runs build/series build/tools build/selftests
