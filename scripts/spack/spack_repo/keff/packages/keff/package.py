# keff as Spack builds it (Spack 1.0 or newer: package API v2). The repository that holds this file
# is a Spack package repository: `spack repo add scripts/spack/spack_repo/keff`, then `spack
# install keff`. scripts/spack/README.md says more; scripts/spack-check.sh checks it on a machine.

import json
import os

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage
from spack_repo.builtin.build_systems.rocm import ROCmPackage

from spack.package import *

# The checkout this recipe sits in (scripts/spack/spack_repo/keff/packages/keff/package.py):
# `develop` clones it, so a recipe registered from a clone builds that clone's main branch without
# a network.
_checkout = os.path.realpath(os.path.join(os.path.dirname(__file__), *[os.pardir] * 6))


class Keff(CMakePackage, CudaPackage, ROCmPackage):
    """Monte Carlo neutron transport mini-app: k-eigenvalue (criticality) power iteration on a
    CSG reactor model, on Kokkos (OpenMP, CUDA, HIP), with MPI across ranks and HDF5 for data
    and results."""

    git = f"file://{_checkout}"

    version("develop", branch="main")

    variant("openmp", default=True, description="Kokkos' OpenMP host backend (else Serial)")
    variant("cmfd", default=True, description="CMFD acceleration (needs Kokkos Kernels)")
    variant("ncrystal", default=False, description="Thermal-neutron scattering from NCrystal")
    variant("png", default=True, description="PNG pictures (keff plot, run --plots)")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")

    depends_on("mpi")
    depends_on("hdf5@1.10: +mpi")
    depends_on("tomlplusplus@3:")
    depends_on("nlohmann-json@3:")
    depends_on("libpng", when="+png")
    depends_on("ncrystal@4:", when="+ncrystal")
    depends_on("googletest", type="test")

    # keff is C++20 and needs Kokkos >= 4.6; the backend is Kokkos', chosen through keff's
    # variants.
    depends_on("kokkos@4.6:")
    conflicts("^kokkos@4 cxxstd=17", msg="keff is C++20: a Kokkos 4 needs cxxstd=20")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos+serial", when="~openmp")
    depends_on("kokkos~cuda", when="~cuda")
    depends_on("kokkos~rocm", when="~rocm")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
    for _target in ROCmPackage.amdgpu_targets:
        depends_on(f"kokkos+rocm amdgpu_target={_target}", when=f"+rocm amdgpu_target={_target}")
    # With a host CMAKE_CXX_COMPILER, Kokkos' compile launcher sends the translation units that use
    # Kokkos to nvcc_wrapper (scripts/README.md, "GPU builds"): Kokkos must be built with it. Kokkos 4 also
    # needs its device lambdas switched on (always on from Kokkos 5).
    depends_on("kokkos+wrapper", when="+cuda")
    conflicts("^kokkos@4 +cuda ~cuda_lambda", msg="device lambdas: Kokkos 4 +cuda_lambda")

    # Kokkos Kernels must be built against keff's Kokkos (one Kokkos in the graph) and, for a GPU,
    # with the vendor's sparse library, which its sparse kernels call: so a device build never
    # takes a host-only Kokkos Kernels registered as an external (an external has no dependency on
    # any Kokkos).
    depends_on("kokkos-kernels", when="+cmfd")
    depends_on("kokkos-kernels+cuda+cusparse", when="+cmfd +cuda")
    depends_on("kokkos-kernels+rocsparse", when="+cmfd +rocm")

    conflicts("+cuda", when="cuda_arch=none", msg="name the GPU: keff +cuda cuda_arch=90")
    conflicts("+rocm", when="amdgpu_target=none", msg="name the GPU: amdgpu_target=gfx942")
    conflicts("+cuda", when="+rocm", msg="one Kokkos device backend per build")
    # CUDA 13.0 and 13.1's math headers clash with glibc >= 2.42 (scripts/README.md, "GPU builds").
    conflicts("^cuda@13.0:13.1", when="^glibc@2.42:")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("KEFF_ENABLE_TESTS", self.run_tests),
            self.define("KEFF_ENABLE_PERF", False),
            self.define("KEFF_FUZZ", False),
            self.define("KEFF_ENABLE_CMFD", "ON" if spec.satisfies("+cmfd") else "OFF"),
            self.define("KEFF_ENABLE_NCRYSTAL", "ON" if spec.satisfies("+ncrystal") else "OFF"),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define("HDF5_ROOT", spec["hdf5"].prefix),
        ]
        if spec.satisfies("+png"):
            args.append(self.define("CMAKE_REQUIRE_FIND_PACKAGE_PNG", True))
        else:
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_PNG", True))
        if spec.satisfies("+rocm"):
            # The `hip` preset's compiler: hipcc compiles every unit (scripts/README.md, "GPU builds").
            args.append(self.define("CMAKE_CXX_COMPILER", spec["hip"].hipcc))
        return args

    def setup_run_environment(self, env):
        # The results package (python -m keff_results) and the examples, for module files.
        env.prepend_path("PYTHONPATH", self.prefix.share.keff.python)
        env.set("KEFF_EXAMPLES", self.prefix.share.keff.examples)

    def _keff(self):
        return which(self.prefix.bin.keff, required=True)

    def _k(self, *args):
        """keff run with args and no statepoint: the k of its JSON summary (mean, std)"""
        self._keff()("run", *args, "--statepoint", "", "--json", "k.json", output=str, error=str)
        with open("k.json") as f:
            return json.load(f)["k"]

    def test_version(self):
        """keff --version names the Kokkos backend and the options it was built with"""
        out = self._keff()("--version", output=str, error=str)
        assert "Kokkos" in out, out
        for variant, backend in (("+cuda", "Cuda"), ("+rocm", "HIP")):
            if self.spec.satisfies(variant):
                assert backend in out, out
        assert ("CMFD on" in out) == self.spec.satisfies("+cmfd"), out

    def test_default_benchmark(self):
        """the embedded default benchmark runs, shortened, and reports k with an uncertainty"""
        k = self._k("--particles", "2000", "--batches", "8", "--inactive", "3")
        assert 0.5 < k["mean"] < 2.0 and k["std"] > 0.0, k

    def test_infinite_medium(self):
        """k of the two-group infinite medium against its exact value, 1.125, within 4 sigma"""
        example = join_path(self.prefix.share.keff.examples, "inf_medium_2g.toml")
        k = self._k(example, "--particles", "20000", "--batches", "40", "--inactive", "10")
        assert abs(k["mean"] - 1.125) <= 4.0 * k["std"], k
