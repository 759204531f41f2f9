import {
  composeSessionHost
} from "./chunk-X25FCLQI.js";
import "./chunk-4XOSVEIW.js";
import "./chunk-CRPBL2XJ.js";
import "./chunk-KLZQSOCM.js";
import "./chunk-NPIZSOGE.js";
import "./chunk-BBKXGLQ3.js";
import "./chunk-COF34Z7E.js";
import "./chunk-Y6YTVGPA.js";
import "./chunk-SWJTFAUB.js";
import "./chunk-Q3CLAD7B.js";
import "./chunk-W4KNPWTK.js";
import "./chunk-3PPHKKT7.js";
import "./chunk-BF55S3NM.js";
import "./chunk-OMD473OS.js";
import "./chunk-32WDO2ZJ.js";
import "./chunk-MTLPFOPA.js";
import "./chunk-I3NCHX22.js";
import "./chunk-76ZWS4BR.js";
import "./chunk-XFVAXZIU.js";
import "./chunk-H6KIDXDK.js";
import "./chunk-R6SHVX2P.js";
import "./chunk-P2JR5UVJ.js";
import "./chunk-BEI6ZGZB.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";
export {
  composeSessionHost
};
