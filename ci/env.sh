# Sourced by ci/test and ci/demo: the environment every mpirun here needs.
# Open MPI refuses to run as root without these (CI runs as root):
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# All MPI traffic stays on loopback: by default Open MPI's TCP transport skips
# 127.0.0.0/8 and uses the machine's network interface.
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
# nvcc, where the CUDA toolkit is installed but not on PATH.
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="$PATH:/usr/local/cuda/bin"
fi
# The compiler cache (ccache, where installed; cmake/funcmesh_ccache.cmake and
# docs/testing.md): ccache's own folder (~/.cache/ccache, or CCACHE_DIR), outside the clone.
# With debug info (-g: the asan, valgrind and fuzz builds) ccache hashes the build folder,
# which a fresh clone in another folder never shares: CI's clones are thrown away, so
# their objects may name the folder they were first compiled in (line numbers are exact).
if [[ -z ${CCACHE_HASHDIR+set} && -z ${CCACHE_NOHASHDIR+set} ]]; then
  export CCACHE_NOHASHDIR=1
fi
