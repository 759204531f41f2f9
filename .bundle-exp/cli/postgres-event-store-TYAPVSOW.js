import {
  PostgresEventStore,
  openPool,
  openPostgresEventStore
} from "./chunk-T35XNKVT.js";
import "./chunk-2XSB7GWG.js";
import "./chunk-3PFGHKN4.js";
import "./chunk-XXOLSKOG.js";
import "./chunk-YCTECULU.js";
import "./chunk-XESUYX36.js";
import "./chunk-3K2LSKRX.js";
import "./chunk-5UEANXJE.js";
import "./chunk-XFVAXZIU.js";
import "./chunk-CORQQBM5.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-BDZLLWVY.js";
export {
  PostgresEventStore,
  openPool,
  openPostgresEventStore
};
