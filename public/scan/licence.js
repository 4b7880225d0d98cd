// Reads the PDF417 barcode on the back of a driver's licence or ID card from the
// phone's rear camera (issue #20). The field form loads this file only when the
// officer taps "Scan licence"; the text it finds goes back to the app, which
// parses it (app/domain/src/model/licence.rs) and asks the officer to confirm.
//
// The browser's own BarcodeDetector decodes where it reads PDF417 (Chrome on
// Android). Elsewhere zxing-wasm (MIT, vendored from npm in
// /vendor/zxing-wasm-3.1.8/) decodes the frames: loaded from our own origin, never
// a CDN (its default), and kept by the service worker for use with no signal.
(() => {
  const ZXING = '/vendor/zxing-wasm-3.1.8/';
  const EVERY_MS = 250;
  let zxing;
  let active;

  function loadZxing() {
    zxing ??= new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = `${ZXING}reader.js`;
      script.onload = () => {
        globalThis.ZXingWASM.prepareZXingModule({
          overrides: { locateFile: (path, prefix) => (path.endsWith('.wasm') ? ZXING + path : prefix + path) },
          fireImmediately: true,
        }).then(() => resolve(globalThis.ZXingWASM), reject);
      };
      script.onerror = () => reject(new Error('decoder'));
      document.head.append(script);
    }).catch((error) => {
      zxing = undefined;
      throw error;
    });
    return zxing;
  }

  // A function from the video to the barcode's text (or undefined: none yet).
  async function reader() {
    if ('BarcodeDetector' in globalThis) {
      try {
        const formats = await globalThis.BarcodeDetector.getSupportedFormats();
        if (formats.includes('pdf417')) {
          const detector = new globalThis.BarcodeDetector({ formats: ['pdf417'] });
          return async (video) => (await detector.detect(video))[0]?.rawValue;
        }
      } catch {
        // fall through to the decoder
      }
    }
    const decoder = await loadZxing();
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    return async (video) => {
      if (!video.videoWidth) return undefined;
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      context.drawImage(video, 0, 0);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      // Plain text: the card's separators (LF, RS, CR) as they are.
      const found = await decoder.readBarcodes(image, {
        formats: ['PDF417'],
        tryHarder: true,
        textMode: 'Plain',
        maxNumberOfSymbols: 1,
      });
      return found.find((result) => result.isValid)?.text;
    };
  }

  function stop() {
    if (!active) return;
    active.stopped = true;
    active.stream?.getTracks().forEach((track) => track.stop());
    active = undefined;
  }

  // Resolves with the barcode's text, or null once stopped. Rejects with an Error
  // whose message is 'decoder', or 'camera:' and the browser's reason
  // (NotAllowedError: refused; NotFoundError: no camera; NotReadableError: in use).
  async function start(video) {
    stop();
    // The session exists before the permission prompt, so a stop while the
    // browser asks still turns the camera off once it opens.
    const session = { stream: undefined, stopped: false };
    active = session;
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 } },
      });
    } catch (error) {
      if (active === session) active = undefined;
      throw new Error(`camera:${error?.name ?? ''}`);
    }
    session.stream = stream;
    if (session.stopped) {
      stream.getTracks().forEach((track) => track.stop());
      return null;
    }
    video.srcObject = stream;
    await video.play().catch(() => undefined);
    let read;
    try {
      read = await reader();
    } catch (error) {
      stop();
      throw error;
    }
    while (!session.stopped) {
      const text = await read(video).catch(() => undefined);
      if (text && !session.stopped) {
        stop();
        return text;
      }
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
    return null;
  }

  globalThis.wellsLicenceScanner = { start, stop };
})();
