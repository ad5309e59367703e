import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { VisionTag } from '@renamer/contracts';
import { englishWords } from '@renamer/domain';
import sharp from 'sharp';
import { createWorker, type Page, type Worker } from 'tesseract.js';
import type { DecodedImage } from '../decoded-image';
import { mayHoldText } from './text-gate';
import { keepReadableWords, type ReadWord } from './word-filter';

export interface TextReader {
  /**
   * The words printed in the picture (source `text`), or none when the cheap text-region test says the picture
   * holds no text. Aborting ends the OCR engine's current job at once; the next read starts a fresh engine.
   */
  read(image: DecodedImage, signal?: AbortSignal): Promise<VisionTag[]>;
  close(): Promise<void>;
}

export interface TextReaderOptions {
  /** A writable directory where tesseract.js keeps the unpacked English model between runs. */
  cachePath: string;
}

/** The LSTM engine only (OEM 1): the model in `@tesseract.js-data/eng`'s `4.0.0_best_int` has no legacy part. */
const LSTM_ONLY = 1;

function englishModelPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(packageJson), '4.0.0_best_int');
}

async function startEngine(cachePath: string): Promise<Worker> {
  const worker = await createWorker('eng', LSTM_ONLY, {
    langPath: englishModelPath(),
    gzip: true,
    cachePath,
  });
  // The PNG we hand over carries no resolution; without this tesseract warns and guesses 70 dpi.
  await worker.setParameters({ user_defined_dpi: '300' });
  return worker;
}

function wordsOf(page: Page): ReadWord[] {
  const words: ReadWord[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) words.push({ text: word.text, confidence: word.confidence });
      }
    }
  }
  return words;
}

function greyPng(image: DecodedImage): Promise<Buffer> {
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The text reading was aborted', 'AbortError');
}

/**
 * Starts one tesseract.js engine (a worker thread) with the English model from `@tesseract.js-data/eng`, read
 * from the package on disk, never from the network. Create one reader per process: reads are queued and run one
 * at a time on the engine.
 */
export async function createTextReader(options: TextReaderOptions): Promise<TextReader> {
  await mkdir(options.cachePath, { recursive: true });
  const dictionary = englishWords();
  let engine: Promise<Worker> | undefined = Promise.resolve(await startEngine(options.cachePath));
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const currentEngine = (): Promise<Worker> => {
    if (!engine) {
      const starting = startEngine(options.cachePath);
      engine = starting;
      // A failed start is not kept: the next read tries again.
      starting.catch(() => {
        if (engine === starting) engine = undefined;
      });
    }
    return engine;
  };

  const recognise = async (image: DecodedImage, signal?: AbortSignal): Promise<VisionTag[]> => {
    const png = await greyPng(image);
    const worker = await currentEngine();
    if (signal?.aborted) throw abortReason(signal);
    const job = worker.recognize(png, {}, { blocks: true });
    if (!signal) return keepReadableWords(wordsOf((await job).data), dictionary);
    return await new Promise<VisionTag[]>((resolve, reject) => {
      const onAbort = () => {
        // tesseract.js cannot cancel a job: end the engine, and the next read starts another.
        engine = undefined;
        worker.terminate().catch(() => undefined);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      job
        .then((result) => resolve(keepReadableWords(wordsOf(result.data), dictionary)), reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  };

  return {
    read(image, signal) {
      if (closed) return Promise.reject(new Error('the text reader is closed'));
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      if (!mayHoldText(image)) return Promise.resolve([]);
      const result = queue.then(() => recognise(image, signal));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      closed = true;
      await queue;
      const last = engine;
      engine = undefined;
      if (last) await (await last).terminate();
    },
  };
}
