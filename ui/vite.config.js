import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import Components from 'unplugin-vue-components/vite'
import { ElementPlusResolver } from 'unplugin-vue-components/resolvers'
import { constants as zlib } from 'node:zlib'
import { fileURLToPath } from 'node:url'

// The built app is served by the Python server from mindinsight/ui/dist, possibly under a
// --url-path-prefix, so every URL in the bundle is relative ('./static/...') and routing is by hash.
export default defineConfig({
  base: './',
  // `@/x` is ui/src/x (also in jsconfig.json's paths, for the type check and editors).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  plugins: [
    vue(),
    // Element Plus on demand: each <el-*> tag and v-loading in a template imports that component
    // (and its CSS) into the chunk of the page using it, so a page loads only what it shows.
    // Our own components stay explicitly imported (dirs: []).
    Components({ resolvers: [ElementPlusResolver({ importStyle: 'css' })], dirs: [], dts: false }),
    // Each file is also written gzip- and brotli-compressed at the highest levels (once, at build
    // time), so the server sends those bytes as they are instead of compressing per request.
    compression({
      algorithms: [
        defineAlgorithm('gzip', { level: 9 }),
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
      ],
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  define: {
    // Every component uses the Composition API (<script setup>): Vue's Options API support stays out.
    __VUE_OPTIONS_API__: false,
    __VUE_PROD_DEVTOOLS__: false,
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: false,
    // No global <i18n-t>/<i18n-n>/<i18n-d>: a template needing <i18n-t> imports Translation itself.
    __VUE_I18N_FULL_INSTALL__: false,
    __VUE_I18N_LEGACY_API__: false,
    __INTLIFY_PROD_DEVTOOLS__: false,
    // Messages are compiled by src/locales/messageCompiler.js: vue-i18n's own compiler stays out.
    __INTLIFY_DROP_MESSAGE_COMPILER__: true,
  },
  build: {
    outDir: '../mindinsight/ui/dist',
    emptyOutDir: true,
    assetsDir: 'static',
    chunkSizeWarningLimit: 1200,
    // One stylesheet for the whole app (31 KB gzip), linked by index.html: a page then loads only
    // its JavaScript. Split per chunk, a page's styles came as a dozen or two more small requests,
    // and a browser asks at most six at a time from one HTTP/1.1 server: the comparison page's
    // first drawing waited on them.
    cssCodeSplit: false,
    // Browsers we support preload modules natively: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Chunks are named by their content hash alone ('c-<hash>.js', which the server's
        // HASHED_NAME still takes for immutable): the entry lists every lazy page's chunks (about
        // 150 names) and every chunk names those it imports, so each name's length is paid in
        // the first load.
        chunkFileNames: 'static/c-[hash].js',
        // A page's first drawing waits for every file of its code, and the browser asks a server
        // six at a time: a few groups keep small modules the bundler would give a file each
        // together (a module in a group is loaded with all of it, wherever it is used).
        codeSplitting: {
          groups: [
            // Vue and vue-i18n, with the entry on every page. Left to the bundler they were cut
            // in two or three pieces by where lazy imports fell: more requests and more bytes.
            { name: 'vue', test: /node_modules[\\/](@vue|vue|vue-i18n|@intlify)[\\/]/ },
            // What the dashboard's first chart and the per-tag pages need besides ECharts (one
            // file, not three; nothing the dashboard did not load already). The job's reads
            // (composables/jobData.js, api/datavisual.js) are in the entry: the router asks for
            // them as the app starts (router/firstReads.js).
            {
              name: 'chart-basics',
              test: /src[\\/](composables[\\/]echart|lib[\\/](scalarSeries|format))\.js$/,
              includeDependenciesRecursively: false,
            },
            // The small helpers of the scalar chart and its tag selection (one file, not eight).
            {
              name: 'scalar-lib',
              test: /src[\\/](api[\\/]scalarBuckets|lib[\\/](tagQuery|errors|scalarBuckets|download|csv)|composables[\\/](tagSelection|escapeKey))\.js$/,
              includeDependenciesRecursively: false,
            },
            // The other pages' messages (locales/pages.js reads them): their own chunk, which the
            // bundler's loader of pages.js then names as a dependency, so src/startPage.js asks
            // for it as the app's code starts (a chunk with no dependencies is asked for only
            // after the app is made).
            {
              name: 'page-messages',
              test: /src[\\/]locales[\\/][a-z]{2}-[A-Z]{2}[\\/](?!(app|common|header|summaryList|dashboard|chart|notFound)\.json$)[^\\/]+\.json$/,
              includeDependenciesRecursively: false,
            },
            // What pages show before their first drawing: the stand-ins of Element's controls, the
            // native radio buttons in Element's look, the loading spinner, the loader of the parts
            // they stand for and afterPaint, by which the charts tell their first drawing (one
            // file, not seven: the summary list and the dashboard each loaded two of them; in
            // 'scalar-lib' every page would load them).
            {
              name: 'stand-ins',
              test: /src[\\/](components[\\/](SelectStandIn|SliderStandIn|InputStandIn|RadioButtons|LoadingSpinner)\.vue|composables[\\/]lazyModule\.js|lib[\\/]afterPaint\.js)$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev` talks to a locally running `mindinsight start` (default port 8080).
    proxy: {
      '/v1': { target: process.env.MINDINSIGHT_DEV_SERVER || 'http://127.0.0.1:8080', changeOrigin: true },
    },
  },
  test: {
    environment: 'node',
    include: ['tests/unit/**/*.test.js'],
  },
})
