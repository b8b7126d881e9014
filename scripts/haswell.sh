#!/bin/sh
# Where this CPU has every instruction set LLVM's `haswell` target may use
# (AVX2, FMA, BMI1 and 2, LZCNT, MOVBE, F16C, POPCNT), prints the variables
# that have PoCL compile for it (POCL_LLVM_CPU_NAME, POCL_KERNELLIB_NAME),
# whose kernels run here and under valgrind too (which runs these); else
# prints nothing and exits 1. scripts/valgrind.sh and scripts/host-guard.sh
# then compile outside valgrind; elsewhere PoCL compiles under valgrind for
# the CPU valgrind shows (slow).
for f in avx2 fma bmi1 bmi2 abm movbe f16c popcnt; do
  grep -qw "$f" /proc/cpuinfo || exit 1
done
echo "POCL_LLVM_CPU_NAME=haswell POCL_KERNELLIB_NAME=avx2"
