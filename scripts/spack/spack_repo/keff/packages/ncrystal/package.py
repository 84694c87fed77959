# NCrystal's C++ library (thermal-neutron scattering), for keff +ncrystal: Spack's builtin
# repository has no NCrystal. Built from the ncrystal-core source distribution on PyPI (the same
# code as `pip install ncrystal`, scripts/setup-ncrystal.sh), a plain CMake project.

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Ncrystal(CMakePackage):
    """NCrystal: a library for thermal neutron transport in crystals and other materials (the
    C++ core, its data library embedded, and ncrystal-config)."""

    homepage = "https://github.com/mctools/ncrystal"
    url = (
        "https://files.pythonhosted.org/packages/source/n/ncrystal-core/ncrystal_core-4.4.6.tar.gz"
    )

    license("Apache-2.0")

    version("4.4.6", sha256="4482c5bcb2d2b38cff3b0abf7df71cebd79fb167eb4d5e736e1cb5c49e45c9f0")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")

    def cmake_args(self):
        return [
            self.define("NCRYSTAL_ENABLE_DATA", "EMBED"),
            self.define("NCRYSTAL_ENABLE_EXAMPLES", False),
            self.define("NCRYSTAL_NOTOUCH_CMAKE_BUILD_TYPE", True),
        ]
