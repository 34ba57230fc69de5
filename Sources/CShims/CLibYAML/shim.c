/* Declarations only: the functions are libyaml's (see CLibYAML.h). */
#include "CLibYAML.h"
