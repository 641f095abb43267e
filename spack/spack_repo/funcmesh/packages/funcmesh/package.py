# funcmesh's Spack package (package API v2). Add the repository with
#   spack repo add spack/spack_repo/funcmesh
# then `spack install funcmesh`, or `spack install funcmesh +cuda cuda_arch=90 ^openmpi+cuda`.

import os

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *


class Funcmesh(CMakePackage, CudaPackage):
    """Explicit numerical schemes on unstructured meshes, written as pure functions of grid
    expressions, run on CPUs (serial, OpenMP) and GPUs (CUDA), distributed with MPI."""

    # Where the project's repository is published; `spack dev-build` and `spack develop`
    # build a local checkout instead (ci/spack-check).
    homepage = "https://github.com/funcmesh/funcmesh"
    git = "https://github.com/funcmesh/funcmesh.git"

    maintainers("funcmesh")
    license("BSD-3-Clause")

    # The stand-alone tests build a small consumer against the installed package.
    test_requires_compiler = True

    version("develop", branch="main")
    # A placeholder until the first release is tagged: the same source as develop.
    version("0.3.0", branch="main")

    variant("openmp", default=True, description="Build the OpenMP executor")
    variant("mpi", default=True, description="Build funcmesh::comm (distributed layouts)")
    variant(
        "hdf5",
        default=True,
        when="+mpi",
        description="Checkpoints as parallel HDF5 files (funcmesh::checkpoint)",
    )
    variant(
        "ptscotch",
        default=True,
        when="+mpi",
        description="partition_ptscotch: parallel graph partitioning with PT-Scotch",
    )
    variant(
        "parmetis",
        default=False,
        when="+mpi",
        description="partition_parmetis: parallel graph partitioning with ParMETIS",
    )
    variant("benchmarks", default=False, description="Build the benchmarks (bench/)")
    variant(
        "examples",
        default=True,
        description="Build and install the examples (funcmesh-euler, -heat, -advection)",
    )

    conflicts("cuda_arch=none", when="+cuda", msg="+cuda needs cuda_arch=<the GPUs' arch>")

    depends_on("cxx", type="build")
    # FindHDF5 test-compiles its C component: CMakeLists.txt enables C with +hdf5.
    depends_on("c", type="build", when="+hdf5")
    depends_on("cmake@3.24:", type="build")

    depends_on("mpi", when="+mpi")
    # Either METIS index width: funcmesh checks every count against idx_t's range.
    depends_on("metis")
    depends_on("hdf5+mpi", when="+hdf5")
    # The checkpoints' block checksums (XXH3-64), used header-only: nothing to link.
    depends_on("xxhash", type="build", when="+hdf5")
    # Either SCOTCH_Num width: funcmesh checks every count against it, and at run time that
    # the header's width is the library's.
    depends_on("scotch+mpi", when="+ptscotch")
    depends_on("parmetis", when="+parmetis")
    depends_on("libpng")
    depends_on("cli11")
    depends_on("benchmark", when="+benchmarks")
    depends_on("googletest", type="test")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("FUNCMESH_ENABLE_OPENMP", "openmp"),
            self.define_from_variant("FUNCMESH_ENABLE_MPI", "mpi"),
            self.define_from_variant("FUNCMESH_ENABLE_CUDA", "cuda"),
            self.define_from_variant("FUNCMESH_BUILD_BENCHMARKS", "benchmarks"),
            self.define_from_variant("FUNCMESH_BUILD_EXAMPLES", "examples"),
            self.define("FUNCMESH_BUILD_TESTS", self.run_tests),
            # Spack chooses the target's instructions: not this machine's.
            self.define("FUNCMESH_NATIVE", False),
            # Spack decides about compiler caching (its config:ccache): the build does not
            # pick up a ccache it finds on PATH.
            self.define("FUNCMESH_CCACHE", False),
        ]
        if spec.satisfies("+mpi"):
            args.append(self.define_from_variant("FUNCMESH_ENABLE_HDF5", "hdf5"))
            # ON or OFF, never CMake's AUTO: what Spack built is what the build must use.
            args.append(self.define_from_variant("FUNCMESH_ENABLE_PTSCOTCH", "ptscotch"))
            args.append(self.define_from_variant("FUNCMESH_ENABLE_PARMETIS", "parmetis"))
        if spec.satisfies("+cuda"):
            args.append(
                self.define("CMAKE_CUDA_ARCHITECTURES", ";".join(spec.variants["cuda_arch"].value))
            )
        return args

    def mpi_test_environment(self):
        """What the MPI tests need, set only where tests run (check() and the stand-alone
        tests), never in the environment `spack load` gives: Open MPI refuses to run as
        root without the permission, which Spack's clean build environment drops, and the
        tests keep their TCP traffic on loopback."""
        environment = {
            "OMPI_MCA_btl_tcp_if_include": "lo",
            "OMPI_MCA_oob_tcp_if_include": "lo",
        }
        if os.geteuid() == 0:
            environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
            environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
        return environment

    def check(self):
        """Every test of the build (ctest), MPI tests at their rank counts included."""
        ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
        with working_dir(self.build_directory):
            ctest(
                "--output-on-failure",
                "--no-tests=error",
                "-j",
                str(make_jobs),
                extra_env=self.mpi_test_environment(),
            )

    consumer_source = join_path("tests", "install", "consumer")

    @run_after("install")
    def cache_test_sources(self):
        """The consumer project the stand-alone tests build against the installation."""
        cache_extra_test_sources(self, [self.consumer_source])

    def test_consumer(self):
        """build a program with find_package(funcmesh) against the installation, run it"""
        source = join_path(self.test_suite.current_test_cache_dir, self.consumer_source)
        cmake = Executable(self.spec["cmake"].prefix.bin.cmake)
        expect = {
            f"EXPECT_{name.upper()}": "ON" if self.spec.satisfies(f"+{name}") else "OFF"
            for name in ("mpi", "cuda", "openmp", "hdf5")
        }
        prefixes = get_cmake_prefix_path(self) + [self.prefix]
        with working_dir("consumer_build", create=True):
            cmake(
                source,
                self.define("CMAKE_PREFIX_PATH", ";".join(prefixes)),
                *[self.define(name, value) for name, value in expect.items()],
            )
            cmake("--build", ".")
            consumer = Executable(join_path(".", "funcmesh_consumer"))
            out = consumer(output=str, error=str, extra_env=self.mpi_test_environment())
        assert "funcmesh consumer: ok" in out

    def test_partition(self):
        """partition a built-in mesh with the installed funcmesh-partition"""
        partition = which(join_path(self.prefix.bin, "funcmesh-partition"), required=True)
        out = partition(
            "--generate",
            "box2d-quad",
            "--cells",
            "400",
            "--parts",
            "4",
            "--no-output",
            output=str,
            error=str,
        )
        assert "imbalance" in out

    def test_heat_on_two_ranks(self):
        """run the heat example on 2 ranks under mpirun"""
        if not self.spec.satisfies("+mpi+examples"):
            raise SkipTest("needs +mpi and +examples")
        mpirun = which(
            join_path(self.spec["mpi"].prefix.bin, "mpirun"),
            join_path(self.spec["mpi"].prefix.bin, "mpiexec"),
            required=True,
        )
        # Open MPI refuses more ranks than cores without --oversubscribe.
        extra = ["--oversubscribe"] if self.spec.satisfies("^openmpi") else []
        heat = join_path(self.prefix.bin, "funcmesh-heat")
        out = mpirun(
            "-np",
            "2",
            *extra,
            heat,
            "--quiet",
            output=str,
            error=str,
            extra_env=self.mpi_test_environment(),
        )
        assert "heat: sum of V u at t_end" in out
