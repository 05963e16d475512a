import { createRequire } from 'node:module';
import { formatHours } from './format.js';

interface CertificateText {
  code: string;
  learnerName: string;
  courseTitle: string;
  educatorName: string;
  startsOn: string;
  endsOn: string;
  hoursAttended: number;
  classesAttended: number;
  classesTotal: number;
  issuedAt: Date;
}

/**
 * DejaVu Sans, embedded (only the glyphs used): pdfkit's built-in Helvetica covers Latin-1
 * only, and a certificate must print every learner's name (Łukasz, Zoë, Ηλέκτρα, Мария).
 */
const fontFile = createRequire(import.meta.url);
const REGULAR = fontFile.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = fontFile.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const longDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The certificate of completion as a PDF (pdfkit, one A4 landscape page). The document's
 * metadata names the learner, the course and the code too, so a file can be told apart
 * without reading its pages. `compress: false` leaves the page text readable (tests).
 */
export async function renderCertificatePdf(c: CertificateText, opts: { verifyUrl: string; compress?: boolean }): Promise<Buffer> {
  // pdfkit is loaded when the first certificate is drawn, not at every start (a fifth of a second).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 56,
    compress: opts.compress ?? true,
    info: {
      Title: `Certificate of completion: ${c.learnerName}`,
      Subject: `${c.courseTitle} (verification code ${c.code})`,
      Author: 'Agora',
      Keywords: c.code,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('Regular', REGULAR);
  doc.registerFont('Bold', BOLD);
  const { width, height } = doc.page;
  doc
    .rect(28, 28, width - 56, height - 56)
    .lineWidth(2)
    .stroke('#4338ca');
  const center = { align: 'center' as const, width: width - 112 };
  doc.moveDown(2);
  doc.font('Regular').fontSize(14).fillColor('#475569').text('AGORA', center);
  doc.moveDown(0.8);
  doc.font('Bold').fontSize(34).fillColor('#0f172a').text('Certificate of completion', center);
  doc.moveDown(1);
  doc.font('Regular').fontSize(14).fillColor('#334155').text('This certifies that', center);
  doc.moveDown(0.5);
  doc.font('Bold').fontSize(28).fillColor('#0f172a').text(c.learnerName, center);
  doc.moveDown(0.5);
  doc.font('Regular').fontSize(14).fillColor('#334155').text('attended and completed the course', center);
  doc.moveDown(0.5);
  doc.font('Bold').fontSize(20).fillColor('#0f172a').text(c.courseTitle, center);
  doc.moveDown(0.5);
  doc
    .font('Regular')
    .fontSize(13)
    .fillColor('#334155')
    .text(`taught by ${c.educatorName}, ${longDate(c.startsOn)} to ${longDate(c.endsOn)}`, center)
    .text(`${formatHours(c.hoursAttended)} of classes: ${c.classesAttended} of ${c.classesTotal} classes attended`, center);
  doc.moveDown(2);
  doc
    .fontSize(11)
    .fillColor('#475569')
    .text(`Issued ${c.issuedAt.toISOString().slice(0, 10)}. Verification code: ${c.code}`, center)
    .text(`Verify at ${opts.verifyUrl}`, center);
  doc.end();
  return done;
}
