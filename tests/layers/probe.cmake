# cmake -DBUILD=DIR -DSOURCE=DIR -DPROBES=DIR -P probe.cmake: runs, one at a time, the
# compile command (from DIR/compile_commands.json, with -fsyntax-only) of
# each probe PROBES/<adapter>/<expect>/<header>.c that tests/layers made,
# and holds its result to <expect>:
#   builds    it compiles;
#   internal  it fails, by the header's #error ("... is ...'s inside") or
#             because the header is not on the include path;
#   absent    it fails because the header is not on the include path.
# Every adapter must have probes of each kind: a tree read wrong fails.
cmake_policy(VERSION 3.25)
file(READ ${BUILD}/compile_commands.json db)
string(JSON n LENGTH "${db}")
math(EXPR last "${n} - 1")
set(count 0)
set(missing_pattern "(: No such file|' file not found)")
foreach(i RANGE ${last})
  string(JSON file GET "${db}" ${i} file)
  string(FIND "${file}" "${PROBES}/" at)
  if(NOT at EQUAL 0)
    continue()
  endif()
  string(JSON dir GET "${db}" ${i} directory)
  string(JSON command GET "${db}" ${i} command)
  file(RELATIVE_PATH rel ${PROBES} ${file})
  string(REGEX MATCH "^([^/]+)/([^/]+)/(.+)\\.c$" _ "${rel}")
  set(adapter ${CMAKE_MATCH_1})
  set(expect ${CMAKE_MATCH_2})
  set(header ${CMAKE_MATCH_3})
  separate_arguments(argv UNIX_COMMAND "${command}")
  # -H: the path each header was found at, first ". PATH" the probe's own.
  execute_process(COMMAND ${argv} -fsyntax-only -H WORKING_DIRECTORY ${dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE text)
  string(REGEX REPLACE "\\." "\\\\." hre "${header}")
  if(rc EQUAL 0 AND NOT expect STREQUAL builds AND text MATCHES "^\\. ([^\n]+)\n")
    # The C library's header of the same name (glibc's values.h): not ours.
    set(found ${CMAKE_MATCH_1})
    string(FIND "${found}" "${SOURCE}/" in_source)
    string(FIND "${found}" "${BUILD}/" in_build)
    if(NOT in_source EQUAL 0 AND NOT in_build EQUAL 0)
      message(STATUS "${adapter}: ${header}: ${expect} (the name is the system's ${found})")
      math(EXPR count "${count} + 1")
      list(APPEND seen_${adapter}_${expect} ${header})
      continue()
    endif()
  endif()
  if(expect STREQUAL builds)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${adapter}: an adapter may include ${header}, but it does not build:\n${text}")
    endif()
  elseif(rc EQUAL 0)
    message(FATAL_ERROR "${adapter}: a file including ${header} was built (${expect}: it must fail)")
  elseif(expect STREQUAL internal)
    if(NOT text MATCHES "${hre} is [^\n]*'s inside" AND NOT text MATCHES "${hre}${missing_pattern}")
      message(FATAL_ERROR "${adapter}: ${header} refused, but neither by its #error nor off the "
                          "include path:\n${text}")
    endif()
  elseif(NOT text MATCHES "${hre}${missing_pattern}")
    message(FATAL_ERROR "${adapter}: ${header} refused, but not because it is off the include "
                        "path:\n${text}")
  endif()
  message(STATUS "${adapter}: ${header}: ${expect}")
  math(EXPR count "${count} + 1")
  list(APPEND seen_${adapter}_${expect} ${header})
endforeach()
foreach(adapter console irc mx)
  foreach(expect builds internal absent)
    if(NOT seen_${adapter}_${expect})
      message(FATAL_ERROR "no ${expect} probe for the ${adapter} adapter: the tree was read wrong")
    endif()
  endforeach()
endforeach()
# The headers issue 30 named, each where it belongs, for every adapter.
foreach(adapter console irc mx)
  foreach(pair host.h:builds command.h:absent render.h:absent help.h:absent porrazo.h:absent
               store.h:absent hctx.h:internal hfair.h:internal store_int.h:internal)
    string(REPLACE ":" ";" pair ${pair})
    list(GET pair 0 header)
    list(GET pair 1 expect)
    if(NOT header IN_LIST seen_${adapter}_${expect})
      message(FATAL_ERROR "${adapter}: ${header} was not probed as ${expect}")
    endif()
  endforeach()
endforeach()
message(STATUS "${count} probes held")
