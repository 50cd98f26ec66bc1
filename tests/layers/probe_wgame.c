/* An adapter's file that reaches into the web layer's inside: must not build. */
#include "wgame.h"
