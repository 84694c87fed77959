# Runs CMD (a ;-list) and passes only if it ends within 120 s (no crash, no hang) with the exit status
# EXIT (default 2) and output matching REGEX, and, when FORBID is given, not matching FORBID.
#   cmake -DCMD="..." -DREGEX="..." [-DEXIT=1] [-DFORBID="..."] -P expect_failure.cmake
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
if(DEFINED FORBID AND all MATCHES "${FORBID}")
  message(FATAL_ERROR "output matches '${FORBID}', which it must not")
endif()
