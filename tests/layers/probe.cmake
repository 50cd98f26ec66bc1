# cmake -DBUILD=DIR -DPROBES="a;b" -P probe.cmake: builds layer_probe_public
# (must succeed), then each layer_probe_<name> (must fail, saying
# "<name>.h is ...'s inside").
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
foreach(probe ${PROBES})
  build(layer_probe_${probe} rc text)
  if(rc EQUAL 0)
    message(FATAL_ERROR "an adapter's file including ${probe}.h was built")
  endif()
  if(NOT text MATCHES "${probe}\\.h is [^\n]*'s inside")
    message(FATAL_ERROR "${probe}.h refused without its #error:\n${text}")
  endif()
  message(STATUS "refused: an adapter's file including ${probe}.h")
endforeach()
