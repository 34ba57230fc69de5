#ifndef CLIBYAML_H
#define CLIBYAML_H

/* libyaml (the system's, libyaml-dev): its event parser, which YAMLDocuments composes documents
   from. */
#include <yaml.h>

#endif
