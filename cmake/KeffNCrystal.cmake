# Thermal-neutron scattering libraries (`[[material]] ncrystal`, io/thermal/) need NCrystal, found as an
# installed CMake package: NCrystal_DIR (`ncrystal-config --show cmakedir`; scripts/build.sh passes the one
# scripts/setup-ncrystal.sh installs), NCrystal_ROOT or CMAKE_PREFIX_PATH (Spack, modules).
#
#   KEFF_ENABLE_NCRYSTAL = AUTO (default): build with NCrystal when found, say how to get it if not
#                          ON:             fail the configure without NCrystal (CI)
#                          OFF:            never look for it; an `ncrystal` material is refused
#
# Sets KEFF_HAVE_NCRYSTAL (ON/OFF), which io/ and tests/ read.
set(KEFF_ENABLE_NCRYSTAL AUTO CACHE STRING "Thermal scattering from NCrystal: AUTO (when found), ON (required) or OFF")
set_property(CACHE KEFF_ENABLE_NCRYSTAL PROPERTY STRINGS AUTO ON OFF)

set(KEFF_HAVE_NCRYSTAL OFF)
include(${CMAKE_CURRENT_LIST_DIR}/KeffSwitch.cmake)
keff_switch(KEFF_ENABLE_NCRYSTAL _keff_nc)
if(NOT _keff_nc STREQUAL "OFF")
  find_package(NCrystal CONFIG)
  if(NCrystal_FOUND)
    set(KEFF_HAVE_NCRYSTAL ON)
    message(STATUS "keff: NCrystal ${NCrystal_VERSION} (${NCrystal_DIR})")
  else()
    string(CONCAT _keff_nc_how
        "NCrystal was not found. Install it (scripts/setup-ncrystal.sh, pip install ncrystal, or Spack with "
        "scripts/spack: spack install keff +ncrystal) and point CMake at it with "
        "-DNCrystal_DIR=$(ncrystal-config --show cmakedir).")
    if(_keff_nc STREQUAL "AUTO")
      message(WARNING "keff: NCrystal is OFF: `ncrystal` materials will be refused. ${_keff_nc_how} "
                      "-DKEFF_ENABLE_NCRYSTAL=OFF silences this message.")
    else()
      message(FATAL_ERROR "keff: KEFF_ENABLE_NCRYSTAL=${KEFF_ENABLE_NCRYSTAL} but ${_keff_nc_how}")
    endif()
  endif()
else()
  message(STATUS "keff: NCrystal off (KEFF_ENABLE_NCRYSTAL=${KEFF_ENABLE_NCRYSTAL})")
endif()
