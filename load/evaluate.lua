-- wrk script: POST /v1/deals/evaluate (body: load/bodies/evaluate_4p.json).
package.path = "load/?.lua;" .. package.path
local common = require("common")
common.post("/v1/deals/evaluate", "load/bodies/evaluate_4p.json")
done = common.done
