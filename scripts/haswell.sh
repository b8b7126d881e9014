#!/bin/sh
# Exits 0 when this CPU has every instruction set LLVM's `haswell` target
# may use (AVX2, FMA, BMI1 and 2, LZCNT, MOVBE, F16C, POPCNT), so that
# kernels PoCL compiles for it run here, under valgrind too (which runs
# these). scripts/valgrind.sh and scripts/host-guard.sh have PoCL compile
# for it outside valgrind where it does; elsewhere PoCL compiles under
# valgrind for the CPU valgrind shows (slow).
for f in avx2 fma bmi1 bmi2 abm movbe f16c popcnt; do
  grep -qw "$f" /proc/cpuinfo || exit 1
done
