# keff_switch(<VAR> <out>): the value of an AUTO|ON|OFF cache switch (KEFF_ENABLE_CMFD,
# KEFF_ENABLE_NCRYSTAL) as one of AUTO, ON or OFF in <out>, CMake's other spellings of true and false
# accepted; anything else stops the configure.
function(keff_switch var out)
  string(TOUPPER "${${var}}" value)
  if(value MATCHES "^(ON|YES|TRUE|Y|1)$")
    set(value ON)
  elseif(value MATCHES "^(OFF|NO|FALSE|N|0)$")
    set(value OFF)
  elseif(NOT value STREQUAL "AUTO")
    message(FATAL_ERROR "keff: ${var}=${${var}}: must be AUTO, ON or OFF")
  endif()
  set(${out} ${value} PARENT_SCOPE)
endfunction()
