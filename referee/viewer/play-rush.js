// play-rush: (to come)
"use strict";
