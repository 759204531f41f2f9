import {
  createPostgresSessionLocker,
  openPostgresSessionLocker
} from "./chunk-XT2GLDKK.js";
import "./chunk-GDQPYYGW.js";
import "./chunk-YCTECULU.js";
import "./chunk-XESUYX36.js";
import "./chunk-5UEANXJE.js";
import "./chunk-SWJTFAUB.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-BDZLLWVY.js";
export {
  createPostgresSessionLocker,
  openPostgresSessionLocker
};
