// play-tetroll: (to come)
"use strict";
