-- wrk script: POST /v1/tricks/legal-cards (body: load/bodies/legal_cards.json).
package.path = "load/?.lua;" .. package.path
local common = require("common")
common.post("/v1/tricks/legal-cards", "load/bodies/legal_cards.json")
done = common.done
