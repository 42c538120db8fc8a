// rgraph as an OpenCode plugin package: `opencode plugin -g <checkout>/plugin/opencode`
// names this folder in OpenCode's config, and OpenCode loads it where it lies. The plugin is
// the one `rgraph install opencode` copies, loaded from the checkout, so it runs the checkout's
// plugin/rgraph.sh (first-run config and hook bundle, then every hook, the Sweep and the MCP
// server). Only the plugin is exported: OpenCode calls every export as one.
export { RgraphPlugin } from "../../lib/install/opencode_plugin.js";
