# cmake -DNM=nm -DLIB=libpz_host.a -DPUBLIC=bot/host/host.h [-DEXPECT=a,b] -P names.cmake:
# the host's names hold to ARCHITECTURE.md ("Names carry their module's
# prefix"). Every global the library defines (a function or a variable,
# read with nm from each of its objects) is either host__..., the host's
# inside, or host_... and declared in PUBLIC, the adapters' API; any
# other is named with its object and fails the test.
#
# With EXPECT (the test of this test, on a fixture library) the names
# found wrong must be exactly EXPECT: the check can fail, and says which.
cmake_policy(VERSION 3.25)
execute_process(COMMAND ${NM} -g -P --defined-only ${LIB} RESULT_VARIABLE rc
                OUTPUT_VARIABLE text ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${LIB} failed (${rc}): ${err}")
endif()
# host.h's functions and variables: a host_ name followed by "(" or ";"
# where it is declared. A name only mentioned in a comment is no
# declaration: the comments are taken out first.
file(READ ${PUBLIC} header)
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" header "${header}")
string(REGEX MATCHALL "host_[A-Za-z0-9_]*[ \t\n]*[(;]" declared "${header}")
list(TRANSFORM declared REPLACE "[ \t\n]*[(;]$" "")
string(REPLACE "\n" ";" lines "${text}")
set(object "?")
set(globals 0)
set(public 0)
set(inside 0)
set(wrong)
foreach(line ${lines})
  # -P: "lib.a[object.o]:" opens an object's symbols, then "name type ...".
  if(line MATCHES "\\[([^]]+)\\]:$")
    set(object ${CMAKE_MATCH_1})
    continue()
  endif()
  if(NOT line MATCHES "^([^ ]+) ([A-Za-z]) ")
    continue()
  endif()
  set(name ${CMAKE_MATCH_1})
  # A name with two leading underscores is the compiler's (C11 7.1.3),
  # e.g. ASan's __odr_asan.NAME beside each variable: not the host's.
  if(name MATCHES "^__")
    continue()
  endif()
  math(EXPR globals "${globals} + 1")
  if(name MATCHES "^host__[a-z0-9]")
    math(EXPR inside "${inside} + 1")
  elseif(name MATCHES "^host_[a-z0-9]" AND name IN_LIST declared)
    math(EXPR public "${public} + 1")
  elseif(name MATCHES "^host_")
    list(APPEND wrong ${name})
    message(STATUS "${object}: ${name} is host_ but not declared in ${PUBLIC}: "
                   "the inside's names are host__")
  else()
    list(APPEND wrong ${name})
    message(STATUS "${object}: ${name} has neither host__ (the inside) nor host_ (host.h)")
  endif()
endforeach()
message(STATUS "${LIB}: ${globals} globals, ${public} of host.h, ${inside} of the inside")
if(globals EQUAL 0 OR public EQUAL 0 OR inside EQUAL 0)
  message(FATAL_ERROR "read wrong: a host library has both host_ and host__ globals")
endif()
if(DEFINED EXPECT)
  string(REPLACE "," ";" EXPECT "${EXPECT}")
  list(SORT wrong)
  list(SORT EXPECT)
  if(NOT wrong STREQUAL EXPECT)
    message(FATAL_ERROR "found wrong: '${wrong}', expected exactly '${EXPECT}'")
  endif()
elseif(wrong)
  list(LENGTH wrong n)
  message(FATAL_ERROR "${n} global(s) without the host's prefix (ARCHITECTURE.md, Names)")
endif()
