# NCrystal's C++ library (thermal-neutron scattering), for keff +ncrystal: Spack's builtin
# repository has no NCrystal. Built from the ncrystal-core source distribution on PyPI (the same
# code as `pip install ncrystal`, scripts/setup-ncrystal.sh), a plain CMake project.

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Ncrystal(CMakePackage):
    """NCrystal: a library for thermal neutron transport in crystals and other materials (the
    C++ core, its data library embedded, and ncrystal-config)."""

    homepage = "https://github.com/mctools/ncrystal"
    # The file's permanent address on PyPI (the /packages/source/ redirect is not served by every
    # PyPI mirror).
    url = (
        "https://files.pythonhosted.org/packages/f1/72/"
        "7662793e2ce2e9f64b87b8d5a64678e2787544346093ece40ebd61096cc7/ncrystal_core-4.4.6.tar.gz"
    )

    license("Apache-2.0")

    version("4.4.6", sha256="4482c5bcb2d2b38cff3b0abf7df71cebd79fb167eb4d5e736e1cb5c49e45c9f0")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")

    # The source distribution carries its data library as pregenerated C++
    # (skbld_autogen/autogen_ncmat_data.cc), not the .ncmat files: NCrystal's CMake uses it in its
    # scikit-build mode, the way pip builds it, which also installs under _ncrystal_core/data.
    _data = join_path("_ncrystal_core", "data")

    def cmake_args(self):
        return [
            self.define("SKBUILD_PROJECT_NAME", "ncrystal_core"),
            self.define("SKBUILD_STATE", "wheel"),
            self.define("NCRYSTAL_ENABLE_DATA", "EMBED"),
            self.define("NCRYSTAL_ENABLE_EXAMPLES", False),
            self.define("NCRYSTAL_NOTOUCH_CMAKE_BUILD_TYPE", True),
        ]

    @property
    def cmake_prefix_paths(self):
        return [join_path(self.prefix, self._data)]

    def setup_run_environment(self, env):
        env.prepend_path("PATH", join_path(self.prefix, self._data, "bin"))
        env.prepend_path("LD_LIBRARY_PATH", join_path(self.prefix, self._data, "lib"))
