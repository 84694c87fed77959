# Runs CMD (a ;-list) and passes only if it exits non-zero within 120 s (no crash, no hang) with the
# exit status EXIT (default 2) and output matching REGEX.
#   cmake -DCMD="..." -DREGEX="..." [-DEXIT=1] -P expect_failure.cmake
if(NOT DEFINED EXIT)
  set(EXIT 2)
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
set(all "${out}${err}")
message("exit status: ${rc}\n${all}")
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit status ${EXIT}, got '${rc}'")
endif()
if(NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'")
endif()
