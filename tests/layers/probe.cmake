# cmake -DBUILD=DIR -DPROBES="a;b" -DUNREACHABLE="c;d" -P probe.cmake:
# builds layer_probe_public (must succeed), then each layer_probe_<name> of
# PROBES (must fail, saying "<name>.h is ...'s inside") and of UNREACHABLE
# (must fail because <name>.h is not on the include path; a name
# "<header>-<adapter>" is <header>.h compiled as that adapter).
function(build target out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE text)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${text}" PARENT_SCOPE)
endfunction()

build(layer_probe_public rc text)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "an adapter cannot include host.h, outq.h and base/:\n${text}")
endif()
message(STATUS "builds: an adapter's file with host.h, outq.h, log.h, loop.h, text.h")
# refused(probe header pattern how): layer_probe_<probe> must fail to
# build, its output matching pattern (how says what that means).
function(refused probe header pattern how)
  build(layer_probe_${probe} rc text)
  if(rc EQUAL 0)
    message(FATAL_ERROR "an adapter's file including ${header}.h was built (${probe})")
  endif()
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${header}.h refused, but not ${how}:\n${text}")
  endif()
  message(STATUS "refused: an adapter's file including ${header}.h (${probe}: ${how})")
endfunction()

foreach(probe ${PROBES})
  refused(${probe} ${probe} "${probe}\\.h is [^\n]*'s inside" "by its #error")
endforeach()
foreach(probe ${UNREACHABLE})
  string(REGEX REPLACE "-.*" "" header ${probe})
  refused(${probe} ${header} "(${header}\\.h: No such file|'${header}\\.h' file not found)"
          "off its include path")
endforeach()
