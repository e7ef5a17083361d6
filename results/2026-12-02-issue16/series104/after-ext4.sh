#!/bin/bash
# Stop the targets run once ext4's overhead step is done, then run micro.
cd /work/main
until grep -q "ext4-1cpu/report.md" /work/logs/bench-targets.log; do sleep 5; done
pkill -f "scripts/bench.sh targets"
sleep 2
pkill -f "guest-bench.sh" ; pkill -f "build/uml-b" ; sleep 5
pkill -9 -f "build/uml-b"
echo "killed at $(date -u +%T)" >> /work/logs/bench-targets.log
rm -rf build/bench/targets-1202b/btrfs-1cpu
BENCH_BUILD=0 STEPS=micro BENCH_OUT=build/bench/targets-1202b scripts/bench.sh targets > /work/logs/bench-micro.log 2>&1
echo "micro done at $(date -u +%T) rc $?" >> /work/logs/bench-micro.log
