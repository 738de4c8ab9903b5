/**
 * sandbox's emulator WebAssembly, compiled once per process and handed to every emulator worker
 * (executor-pool.ts → executor-worker.ts), instead of each worker parsing sandbox's 6.7 MB base64 module text,
 * decoding it and compiling it again: a compiled module posted to a worker is shared, not copied. The worker
 * instantiates it with sandbox's own emscripten glue, as sandbox's `Executor.create` would with the bytes.
 */
import { createRequire } from 'node:module';
import { Executor } from '@ton/sandbox';

const require = createRequire(import.meta.url);
const WASM_TEXT = '@ton/sandbox/dist/executor/emulator-emscripten.wasm.js';
const GLUE = '@ton/sandbox/dist/executor/emulator-emscripten.js';

let compiled: Promise<WebAssembly.Module> | undefined;

/** The emulator module of this process, compiled on first use. */
export function emulatorWasm(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const path = require.resolve(WASM_TEXT);
    const { EmulatorEmscriptenWasm: text } = require(path) as { EmulatorEmscriptenWasm: string };
    // the text is only needed once: let it go with its module record
    delete require.cache[path];
    return WebAssembly.compile(Buffer.from(text, 'base64'));
  })();
  compiled.catch(() => (compiled = undefined));
  return compiled;
}

type Imports = WebAssembly.Imports;
type EmscriptenFactory = (opts: { instantiateWasm(imports: Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object }) => Promise<unknown>;

/** sandbox's Executor on an instance of `wasm` (compiled by emulatorWasm, maybe in another thread). */
export async function executorOn(wasm: WebAssembly.Module): Promise<Executor> {
  const factory = require(GLUE) as EmscriptenFactory;
  // emscripten's hook has no way to report a failure: a failed instantiation rejects here instead
  let fail!: (e: unknown) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  const module = await Promise.race([
    factory({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(wasm, imports).then((instance) => done(instance, wasm), fail);
        return {};
      },
    }),
    failed,
  ]);
  // the constructor sandbox's own create calls with the module it makes
  return new (Executor as unknown as new (module: unknown) => Executor)(module);
}
