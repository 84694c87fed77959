# expect_same_results(A_JSON B_JSON WHAT): two runs' JSON summaries (their text) must hold the same bits
# in every batch's k estimators, entropy and leakage, the tallies, the k summary, the leakage and the
# source's stationarity verdict (the JSON holds doubles with round-trip precision); WHAT names the two
# runs in the message.
function(expect_same_results a_json b_json what)
  foreach(key IN ITEMS batches tallies k populations leakage stationarity)
    string(JSON a GET "${a_json}" ${key})
    string(JSON b GET "${b_json}" ${key})
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "'${key}' differs between ${what}:\n${a}\n---\n${b}")
    endif()
  endforeach()
endfunction()
